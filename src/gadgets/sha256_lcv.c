/* SHA-256 gadgets (bellpepper gadgets/sha256.rs; rust-fil-proofs
 * Sha256Function circuits), compiled once per LC variant (cs/lc.h).
 * FIPS 180-4 §6.2 in bellpepper's formulation: message words from big-endian
 * bits, additions batched through MultiEq, e and a kept as deferred sums. The
 * native hashes are sha256.c's. */
#include <stdlib.h>

#include "cs/lc_lcv.h"
#include "czk/sha256.h"
#include "gadgets/gadgets_lc.h"
#include "gadgets/sha256_witness.h"

/* A run of message bits: bits[0..n) then constant zeros up to `total`. */
typedef struct czk__sha_seg {
    const czk_bool *bits;
    size_t n, total;
} czk__sha_seg;

/* A value of the working variables that may still be a pending sum
 * (bellpepper's Maybe::Deferred). */
typedef struct sha_maybe {
    czk_u32 v[8];
    size_t n; /* 0: concrete (v[0]); otherwise n deferred operands */
} sha_maybe;

static czk_status sha_compute(czk_cs *cs, czk_multieq *me, czk_u32 *out, sha_maybe *m,
                              const czk_u32 *extra, const char *ns)
{
    if (m->n == 0) {
        *out = m->v[0];
        return CZK_OK;
    }
    if (extra) m->v[m->n++] = *extra;
    czk__cs_ns_push(cs, ns, CZK_NOIDX);
    czk_status s = czk_u32_addmany(cs, me, out, m->v, m->n);
    czk__cs_ns_pop(cs);
    return s;
}

static czk_status sha_xor3(czk_cs *cs, czk_u32 *out, const czk_u32 *x, unsigned r1, unsigned r2,
                           unsigned r3, int shr3, const char *n1, const char *n2)
{
    czk_u32 a, b, c;
    czk_status s;
    czk_u32_rotr(&a, x, r1);
    czk_u32_rotr(&b, x, r2);
    if (shr3) czk_u32_shr(&c, x, r3);
    else czk_u32_rotr(&c, x, r3);
    czk__cs_ns_push(cs, n1, CZK_NOIDX);
    s = czk_u32_xor(cs, &a, &a, &b);
    czk__cs_ns_pop(cs);
    CZK_TRY(s);
    czk__cs_ns_push(cs, n2, CZK_NOIDX);
    s = czk_u32_xor(cs, out, &a, &c);
    czk__cs_ns_pop(cs);
    return s;
}

static czk_status sha_addmany_ns(czk_cs *cs, czk_multieq *me, czk_u32 *out, const czk_u32 *ops, size_t n,
                                 const char *ns, uint64_t idx)
{
    czk__cs_ns_push(cs, ns, idx);
    czk_status s = czk_u32_addmany(cs, me, out, ops, n);
    czk__cs_ns_pop(cs);
    return s;
}

static czk_status sha_rounds(czk_cs *cs, czk_multieq *me, czk_u32 out[8], const czk_bool in[512],
                             const czk_u32 iv[8])
{
    czk_u32 w[64], t;
    czk_status s;
    for (int i = 0; i < 16; i++) czk_u32_from_bits_be(&w[i], in + 32 * i);
    for (unsigned i = 16; i < 64; i++) {
        czk_u32 ops[4];
        czk__cs_ns_push(cs, "w extension", i);
        s = sha_xor3(cs, &ops[1], &w[i - 15], 7, 18, 3, 1, "first xor for s0", "second xor for s0");
        if (s == CZK_OK)
            s = sha_xor3(cs, &ops[3], &w[i - 2], 17, 19, 10, 1, "first xor for s1", "second xor for s1");
        if (s == CZK_OK) {
            ops[0] = w[i - 16];
            ops[2] = w[i - 7];
            s = sha_addmany_ns(cs, me, &w[i], ops, 4, "computation of w[i]", CZK_NOIDX);
        }
        czk__cs_ns_pop(cs);
        CZK_TRY(s);
    }

    sha_maybe a, e;
    czk_u32 b = iv[1], c = iv[2], d = iv[3], f = iv[5], g = iv[6], h = iv[7];
    a.v[0] = iv[0];
    a.n = 0;
    e.v[0] = iv[4];
    e.n = 0;
    for (unsigned i = 0; i < 64; i++) {
        czk_u32 new_e, new_a, s1, ch, s0, maj, k;
        czk__cs_ns_push(cs, "compression round", i);
        s = sha_compute(cs, me, &new_e, &e, NULL, "deferred e computation");
        if (s == CZK_OK)
            s = sha_xor3(cs, &s1, &new_e, 6, 11, 25, 0, "first xor for s1", "second xor for s1");
        if (s == CZK_OK) {
            czk__cs_ns_push(cs, "ch", CZK_NOIDX);
            s = czk_u32_sha256_ch(cs, &ch, &new_e, &f, &g);
            czk__cs_ns_pop(cs);
        }
        if (s == CZK_OK) s = sha_compute(cs, me, &new_a, &a, NULL, "deferred a computation");
        if (s == CZK_OK)
            s = sha_xor3(cs, &s0, &new_a, 2, 13, 22, 0, "first xor for s0", "second xor for s0");
        if (s == CZK_OK) {
            czk__cs_ns_push(cs, "maj", CZK_NOIDX);
            s = czk_u32_sha256_maj(cs, &maj, &new_a, &b, &c);
            czk__cs_ns_pop(cs);
        }
        czk__cs_ns_pop(cs);
        CZK_TRY(s);
        czk_u32_constant(&k, CZK_SHA256_K[i]);
        /* temp1 = [h, s1, ch, K[i], w[i]]; e = temp1 + d; a = temp1 + [s0, maj] */
        e.v[0] = h;
        e.v[1] = s1;
        e.v[2] = ch;
        e.v[3] = k;
        e.v[4] = w[i];
        memcpy(a.v, e.v, 5 * sizeof(czk_u32));
        e.v[5] = d;
        e.n = 6;
        a.v[5] = s0;
        a.v[6] = maj;
        a.n = 7;
        h = g;
        g = f;
        f = new_e;
        d = c;
        c = b;
        b = new_a;
    }
    czk_u32 ops[2];
    CZK_TRY(sha_compute(cs, me, &out[0], &a, &iv[0], "deferred h0 computation"));
    ops[0] = iv[1], ops[1] = b;
    CZK_TRY(sha_addmany_ns(cs, me, &t, ops, 2, "new h1", CZK_NOIDX));
    out[1] = t;
    ops[0] = iv[2], ops[1] = c;
    CZK_TRY(sha_addmany_ns(cs, me, &out[2], ops, 2, "new h2", CZK_NOIDX));
    ops[0] = iv[3], ops[1] = d;
    CZK_TRY(sha_addmany_ns(cs, me, &out[3], ops, 2, "new h3", CZK_NOIDX));
    CZK_TRY(sha_compute(cs, me, &out[4], &e, &iv[4], "deferred h4 computation"));
    ops[0] = iv[5], ops[1] = f;
    CZK_TRY(sha_addmany_ns(cs, me, &out[5], ops, 2, "new h5", CZK_NOIDX));
    ops[0] = iv[6], ops[1] = g;
    CZK_TRY(sha_addmany_ns(cs, me, &out[6], ops, 2, "new h6", CZK_NOIDX));
    ops[0] = iv[7], ops[1] = h;
    return sha_addmany_ns(cs, me, &out[7], ops, 2, "new h7", CZK_NOIDX);
}

czk_status czk_sha256_compression(czk_cs *cs, czk_u32 out[8], const czk_bool in[512], const czk_u32 iv[8])
{
    /* WITNESS: the same aux values computed on words (sha256_witness.c) */
    if (!cs->needs_constraints && czk__sha256_compression_witness(cs, out, in, iv)) return CZK_OK;
    czk_multieq me;
    czk_multieq_init(&me, cs);
    czk_status s = sha_rounds(cs, &me, out, in, iv);
    czk_status s2 = czk_multieq_finish(&me);
    return s != CZK_OK ? s : s2;
}

static void sha_iv(czk_u32 iv[8])
{
    for (int i = 0; i < 8; i++) czk_u32_constant(&iv[i], CZK_SHA256_IV[i]);
}

static void sha_out_bits(czk_bool out[256], const czk_u32 h[8])
{
    for (int i = 0; i < 8; i++) czk_u32_into_bits_be(out + 32 * i, &h[i]);
}

czk_status czk_sha256_block_no_padding(czk_cs *cs, czk_bool out[256], const czk_bool in[512])
{
    czk_u32 iv[8], h[8];
    sha_iv(iv);
    CZK_TRY(czk_sha256_compression(cs, h, in, iv));
    sha_out_bits(out, h);
    return CZK_OK;
}

/* sha256() over the concatenation of segments, streamed block by block:
 * message, a constant 1, constant zeros, the 64-bit length (FIPS 180-4 §5.1.1). */
static czk_status sha_segments(czk_cs *cs, czk_bool out[256], const czk__sha_seg *segs, size_t nseg)
{
    uint64_t len = 0;
    for (size_t k = 0; k < nseg; k++) len += segs[k].total;
    if (len % 8)
        return czk_error(CZK_ERR_INVALID_ARG, "sha256 gadget: %llu input bits is not a whole number of bytes",
                         (unsigned long long)len);
    uint64_t padded = len + 1;
    while ((padded + 64) % 512) padded++;
    padded += 64;
    czk_bool blk[512];
    czk_u32 cur[8], nxt[8];
    sha_iv(cur);
    size_t seg = 0, off = 0;
    uint64_t pos = 0;
    for (uint64_t bi = 0; bi < padded / 512; bi++) {
        for (unsigned j = 0; j < 512; j++, pos++) {
            if (pos < len) {
                while (off >= segs[seg].total) {
                    seg++;
                    off = 0;
                }
                blk[j] = off < segs[seg].n ? segs[seg].bits[off] : czk_bool_const(0);
                off++;
            } else if (pos == len) {
                blk[j] = czk_bool_const(1);
            } else if (pos >= padded - 64) {
                blk[j] = czk_bool_const((int)(len >> (63 - (pos - (padded - 64)))) & 1);
            } else {
                blk[j] = czk_bool_const(0);
            }
        }
        czk__cs_ns_push(cs, "block", bi);
        czk_status s = czk_sha256_compression(cs, nxt, blk, cur);
        czk__cs_ns_pop(cs);
        CZK_TRY(s);
        memcpy(cur, nxt, sizeof(cur));
    }
    sha_out_bits(out, cur);
    return CZK_OK;
}

czk_status czk_sha256_gadget(czk_cs *cs, czk_bool out[256], const czk_bool *in, size_t nbits)
{
    czk__sha_seg seg = {in, nbits, nbits};
    return sha_segments(cs, out, &seg, 1);
}

/* Filecoin's digest to number: sha256 ("hash"), bits of each byte reversed
 * (little-endian within bytes), first 254 packed in `pack_ns`. */
static czk_status sha_to_num(czk_cs *cs, czk_anum *out, const czk__sha_seg *segs, size_t nseg,
                             const char *pack_ns)
{
    czk_bool be[256], le[256];
    czk__cs_ns_push(cs, "hash", CZK_NOIDX);
    czk_status s = sha_segments(cs, be, segs, nseg);
    czk__cs_ns_pop(cs);
    CZK_TRY(s);
    for (int i = 0; i < 256; i++) le[i] = be[(i & ~7) | (7 - (i & 7))];
    czk__cs_ns_push(cs, pack_ns, CZK_NOIDX);
    s = czk_bits_pack(cs, out, le, 254);
    czk__cs_ns_pop(cs);
    return s;
}

czk_status czk_sha256_hash_bits(czk_cs *cs, czk_anum *out, const czk_bool *bits, size_t nbits)
{
    czk__sha_seg seg = {bits, nbits, nbits};
    return sha_to_num(cs, out, &seg, 1, "pack_le");
}

/* Pad to whole bytes with constant zeros and reverse the bits in each byte. */
static void sha_byte_reverse(czk_bool *dst, const czk_bool *src, size_t n)
{
    size_t m = (n + 7) & ~(size_t)7;
    for (size_t i = 0; i < m; i++) {
        size_t j = (i & ~(size_t)7) | (7 - (i & 7));
        dst[i] = j < n ? src[j] : czk_bool_const(0);
    }
}

czk_status czk_sha256_hash_leaf_bits(czk_cs *cs, czk_anum *out, const czk_bool *left, size_t nleft,
                                     const czk_bool *right, size_t nright)
{
    czk_bool stackbuf[512], *buf = stackbuf;
    size_t ml = (nleft + 7) & ~(size_t)7, mr = (nright + 7) & ~(size_t)7;
    if (ml + mr > 512) {
        buf = malloc((ml + mr) * sizeof(czk_bool));
        if (!buf) return czk_error(CZK_ERR_NOMEM, "hash_leaf_bits: %zu bits", ml + mr);
    }
    sha_byte_reverse(buf, left, nleft);
    sha_byte_reverse(buf + ml, right, nright);
    czk__sha_seg seg = {buf, ml + mr, ml + mr};
    czk_status s = sha_to_num(cs, out, &seg, 1, "pack_le");
    if (buf != stackbuf) free(buf);
    return s;
}

czk_status czk_sha256_hash2(czk_cs *cs, czk_anum *out, const czk_anum *a, const czk_anum *b)
{
    czk_bool ab[255], bb[255], pre[512];
    czk_status s;
    czk__cs_ns_push(cs, "a_bits", CZK_NOIDX);
    s = czk_anum_to_bits_le(cs, ab, a);
    czk__cs_ns_pop(cs);
    CZK_TRY(s);
    czk__cs_ns_push(cs, "b_bits", CZK_NOIDX);
    s = czk_anum_to_bits_le(cs, bb, b);
    czk__cs_ns_pop(cs);
    CZK_TRY(s);
    sha_byte_reverse(pre, ab, 255);
    sha_byte_reverse(pre + 256, bb, 255);
    czk__sha_seg seg = {pre, 512, 512};
    return sha_to_num(cs, out, &seg, 1, "pack_le");
}

czk_status czk_label_gadget(czk_cs *cs, czk_anum *out, const czk_bool *replica_id, size_t n_replica_id,
                            const czk_bool *const parents[CZK_LABEL_PARENTS], size_t parent_bits,
                            const czk_u32 *layer, const czk_u64 *node)
{
    if (n_replica_id < 32 || n_replica_id > 256)
        return czk_error(CZK_ERR_INVALID_ARG, "label: replica id of %zu bits (32..256)", n_replica_id);
    if (parent_bits > 256) return czk_error(CZK_ERR_INVALID_ARG, "label: parents of %zu bits (<= 256)", parent_bits);
    czk_bool ln[96];
    czk_u32_into_bits_be(ln, layer);
    czk_u64_to_bits_be(ln + 32, node);
    czk__sha_seg segs[2 + CZK_LABEL_PARENTS];
    segs[0] = (czk__sha_seg){replica_id, n_replica_id, 256};
    segs[1] = (czk__sha_seg){ln, 96, 256};
    for (int i = 0; i < CZK_LABEL_PARENTS; i++) segs[2 + i] = (czk__sha_seg){parents[i], parent_bits, 256};
    return sha_to_num(cs, out, segs, 2 + CZK_LABEL_PARENTS, "result_num");
}
