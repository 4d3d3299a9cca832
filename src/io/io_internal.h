/* Internal helpers of src/io: whole-file reading and the binary container
 * shared by .r1cs, .wtns, .zkey and .ptau (docs/circom.md#common-container). */
#ifndef CZK_IO_INTERNAL_H
#define CZK_IO_INTERNAL_H

#include "common/bytes.h"
#include "czk/circom.h"

#define CZK__IO_MAX_SECTIONS 64

typedef struct czk__sect {
    uint32_t type;
    uint64_t off, len; /* payload offset and length in the file */
} czk__sect;

typedef struct czk__container {
    const uint8_t *buf;
    size_t len;
    const char *name;
    uint32_t version, n_sect;
    czk__sect sect[CZK__IO_MAX_SECTIONS];
} czk__container;

/* Read a whole file into a malloc'd buffer (CZK_ERR_IO naming the path). */
czk_status czk__io_read_file(uint8_t **buf, size_t *len, const char *path) CZK_WUR;

/* Check the 4-byte magic, read version and the section table (every section
 * must lie inside the file). */
czk_status czk__container_open(czk__container *c, const uint8_t *buf, size_t len, const char *name,
                               const char magic[4]) CZK_WUR;
/* The unique section of a type (CZK_ERR_FORMAT if missing or repeated). */
czk_status czk__container_find(const czk__sect **s, const czk__container *c, uint32_t type) CZK_WUR;

/* A bounded cursor over one section. */
typedef struct czk__cur {
    const czk__container *c;
    const czk__sect *s;
    czk__span sp; /* over the whole file: pos and end are file offsets */
} czk__cur;

void czk__cur_init(czk__cur *k, const czk__container *c, const czk__sect *s);
/* Bytes left in the section. */
static inline uint64_t czk__cur_left(const czk__cur *k) { return czk__span_left(&k->sp); }
/* CZK_ERR_FORMAT naming file, section and offset unless n bytes remain. */
czk_status czk__cur_need(const czk__cur *k, uint64_t n, const char *what) CZK_WUR;
czk_status czk__cur_u32(czk__cur *k, uint32_t *v, const char *what) CZK_WUR;
czk_status czk__cur_u64(czk__cur *k, uint64_t *v, const char *what) CZK_WUR;
/* Error at the cursor: "<file>: section <t> at byte <off>: <msg>". */
czk_status czk__cur_err(const czk__cur *k, czk_status s, uint64_t off, const char *fmt, ...)
    CZK_PRINTF(4, 5);

/* Check that the n8-byte LE prime at p is BLS12-381's r (n8 = 32) — else
 * CZK_ERR_UNSUPPORTED naming what was found (BN254 recognised by name). */
czk_status czk__check_prime_r(const czk__cur *k, uint32_t n8, uint64_t off) CZK_WUR;

/* Plain LE 32-byte scalar -> Montgomery czk_fr (rejects >= r). */
czk_status czk__cur_fr_plain(czk__cur *k, czk_fr *r, const char *what) CZK_WUR;

/* Points in snarkjs' LEM encoding (Montgomery LE, 48-byte coordinates, all
 * zero = infinity); checks canonical, on curve, subgroup unless
 * CZK_CIRCOM_NO_SUBGROUP_CHECK. n points from the cursor, threaded. */
czk_status czk__cur_g1_lem(czk__cur *k, czk_g1_affine *out, size_t n, unsigned flags,
                           const char *what) CZK_WUR;
czk_status czk__cur_g2_lem(czk__cur *k, czk_g2_affine *out, size_t n, unsigned flags,
                           const char *what) CZK_WUR;

/* ---- MSMs over mostly-0/1 scalars (circom_msm.c) ---------------------------- */

/* a == b as limb vectors (both reduced: equality of field elements). */
static inline int czk__fr_limbs_eq(const czk_fr *a, const czk_fr *b)
{
    return ((a->l[0] ^ b->l[0]) | (a->l[1] ^ b->l[1]) | (a->l[2] ^ b->l[2]) | (a->l[3] ^ b->l[3])) == 0;
}

/* Index lists of czk__circom_sum_*: bit 31 set = add the negated base. */
#define CZK__SUM_SIGN 0x80000000u
#define CZK__SUM_IDX 0x7fffffffu

/* out = sum of bases[idx[i] & CZK__SUM_IDX], negated where CZK__SUM_SIGN is
 * set, for i < m: batch-affine addition trees on up to `threads` threads
 * (0: czk_threads()); any points (infinity, equal, opposite) are fine.
 * CZK_ERR_NOMEM if its scratch (m/2 points + m/2 field elements) fails. */
czk_status czk__circom_sum_g1(czk_g1_jac *out, const czk_g1_affine *bases, const uint32_t *idx, size_t m,
                              int threads) CZK_WUR;
czk_status czk__circom_sum_g2(czk_g2_jac *out, const czk_g2_affine *bases, const uint32_t *idx, size_t m,
                              int threads) CZK_WUR;

/* out = sum scalars[i] * bases[j(i)] with czk_msm_g1_var's arguments and
 * density semantics (czk/msm.h), for n < 2^31: scalars 0 (and infinite
 * bases) are skipped, scalars 1 and -1 go to czk__circom_sum_*, the others
 * (copied out) to czk_msm_*_var. counts (may be NULL) gets += the numbers
 * of skipped, +-1 and other scalars. Variable time. */
czk_status czk__circom_msm01_g1(czk_g1_jac *out, const czk_g1_affine *bases, size_t nbases, const czk_fr *scalars,
                                size_t n, const uint64_t *density, int threads, size_t counts[3]) CZK_WUR;
czk_status czk__circom_msm01_g2(czk_g2_jac *out, const czk_g2_affine *bases, size_t nbases, const czk_fr *scalars,
                                size_t n, const uint64_t *density, int threads, size_t counts[3]) CZK_WUR;

#endif
