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

#include "common/fileio.h"

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

static czk_status g1_decode(czk_g1_affine *r, const uint8_t *in, czk_groth16_check check,
                            int allow_identity)
{
    czk_status s = check == CZK_GROTH16_CHECK_FULL ? czk_g1_deserialize(r, in)
                                                   : czk_g1_deserialize_unchecked_subgroup(r, in);
    if (s != CZK_OK) return s;
    if (r->inf && !allow_identity) return czk_error(CZK_ERR_IDENTITY, "point at infinity");
    return CZK_OK;
}

static czk_status g2_decode(czk_g2_affine *r, const uint8_t *in, czk_groth16_check check,
                            int allow_identity)
{
    czk_status s = check == CZK_GROTH16_CHECK_FULL ? czk_g2_deserialize(r, in)
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
        czk_status s = g2 ? g2_decode((czk_g2_affine *)out + i, buf + i * psz, check, 0)
                          : g1_decode((czk_g1_affine *)out + i, buf + i * psz, check, 0);
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
        czk_status s = fixed[i].g2 ? g2_decode(fixed[i].dst, p, check, 0)
                                   : g1_decode(fixed[i].dst, p, check, 0);
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
    free(p->h);
    free(p->l);
    free(p->a);
    free(p->b_g1);
    free(p->b_g2);
    memset(p, 0, sizeof *p);
}

czk_status czk_groth16_params_read(czk_groth16_params *p, const char *path, czk_groth16_check check)
{
    memset(p, 0, sizeof *p);
    mapped m;
    CZK_TRY(map_file(&m, path));
    size_t off = 0;
    czk_status s = vk_decode_checked(&p->vk, m.p, m.len, &off, check);
    if (s != CZK_OK) goto fail;
    static const char *const names[5] = {"h", "l", "a", "b_g1", "b_g2"};
    size_t *counts[5] = {&p->n_h, &p->n_l, &p->n_a, &p->n_b_g1, &p->n_b_g2};
    void **dsts[5] = {(void **)&p->h, (void **)&p->l, (void **)&p->a, (void **)&p->b_g1,
                      (void **)&p->b_g2};
    for (int sec = 0; sec < 5; sec++) {
        size_t psz = sec == 4 ? CZK_G2_UNCOMPRESSED : CZK_G1_UNCOMPRESSED;
        size_t esz = sec == 4 ? sizeof(czk_g2_affine) : sizeof(czk_g1_affine);
        if (m.len - off < 4) {
            s = czk_error(CZK_ERR_FORMAT, "section %s: truncated at byte offset %zu (no count)",
                          names[sec], off);
            goto fail;
        }
        uint32_t n = get_u32_be(m.p + off);
        off += 4;
        if ((size_t)n > (m.len - off) / psz) {
            s = czk_error(CZK_ERR_FORMAT,
                          "section %s: count %u needs %zu bytes but only %zu remain (byte offset %zu)",
                          names[sec], n, (size_t)n * psz, m.len - off, off);
            goto fail;
        }
        *counts[sec] = n;
        *dsts[sec] = malloc((size_t)(n ? n : 1) * esz);
        if (!*dsts[sec]) {
            s = czk_error(CZK_ERR_NOMEM, "section %s: %u points", names[sec], n);
            goto fail;
        }
        s = decode_section(*dsts[sec], sec == 4, m.p + off, n, names[sec], off, check);
        if (s != CZK_OK) goto fail;
        off += (size_t)n * psz;
    }
    if (off != m.len) {
        s = czk_error(CZK_ERR_FORMAT, "%zu trailing bytes after section b_g2", m.len - off);
        goto fail;
    }
    unmap_file(&m);
    return CZK_OK;
fail:
    unmap_file(&m);
    czk_groth16_params_clear(p);
    return czk_error_context(s, "%s", path);
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

czk_status czk_groth16_params_write(const char *path, const czk_groth16_params *p)
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
    s = czk__write_atomic(path, chunks, lens, 6);
out:
    for (int i = 0; i < 6; i++) free(bufs[i]);
    return s;
}

static size_t next_pow2(size_t n)
{
    size_t m = 1;
    while (m < n) m <<= 1;
    return m;
}

czk_status czk_groth16_params_match(const czk_groth16_params *p, const czk_cs_assignment *w)
{
    if (p->vk.n_ic != w->n_input)
        return czk_error(CZK_ERR_INVALID_ARG, "parameters have %zu public inputs (with ONE), the circuit %zu",
                         p->vk.n_ic, w->n_input);
    if (p->n_l != w->n_aux)
        return czk_error(CZK_ERR_INVALID_ARG, "parameters have %zu l points, the circuit %zu aux variables",
                         p->n_l, w->n_aux);
    size_t m = next_pow2(w->n_constraints);
    if (p->n_h != m - 1)
        return czk_error(CZK_ERR_INVALID_ARG,
                         "parameters have %zu h points, the circuit needs %zu (%zu constraints)", p->n_h,
                         m - 1, w->n_constraints);
    if (p->n_a != w->n_input + w->a_aux_popcount)
        return czk_error(CZK_ERR_INVALID_ARG, "parameters have %zu a points, the circuit's density needs %zu",
                         p->n_a, w->n_input + w->a_aux_popcount);
    size_t nb = w->b_input_popcount + w->b_aux_popcount;
    if (p->n_b_g1 != nb || p->n_b_g2 != nb)
        return czk_error(CZK_ERR_INVALID_ARG,
                         "parameters have %zu/%zu b points (G1/G2), the circuit's density needs %zu",
                         p->n_b_g1, p->n_b_g2, nb);
    return CZK_OK;
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
