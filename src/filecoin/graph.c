/* The StackedDRG graph of rust-fil-proofs (storage-proofs-core drgraph.rs
 * BucketGraph, storage-proofs-porep stacked/vanilla/graph.rs StackedGraph,
 * storage-proofs-core crypto/feistel.rs) and the interactive PoRep
 * challenges (stacked/vanilla/challenges.rs).
 *
 * DRG parents ("BucketSample", Ben Fisch, "Tight Proofs of Space and
 * Replication", 2019, section 5): node v >= 2 draws from ChaCha8 seeded with
 * drg_seed[0..28] || v u32 LE; for each of the 5 other parents
 *   bucket = (rng_u64 % ceil(log2(5 v))) + 1
 *   hi = min(5 v, 2^bucket), lo = max(2, hi / 2)
 *   dist = lo + rng_u64 % (hi - lo + 1)
 *   parent = (5 v - dist) / 5   (v - 1 when that is v itself)
 * and parent 0 (API >= 1.1; the last parent for 1.0) is v - 1. Nodes 0 and
 * 1 have all parents 0. drg_seed = SHA-256("Filecoin_DRSample" || porep_id).
 * Expander parent i of v: Feistel-permute 8 v + i in [0, 8 nodes) with
 * 3 rounds keyed by SHA-256("Filecoin_Feistel" || porep_id) as u64 LE
 * words, round function Blake2b-512(right u64 BE || key u64 BE)[0..8] BE,
 * cycle-walking until the value is < 8 nodes; the parent is value / 8. */
#include <string.h>

#include "czk/filecoin.h"
#include "common/chacha.h"
#include "filecoin/internal.h"

/* ---- ChaCha8 as rand_chacha's ChaCha8Rng (key = seed, 64-bit block
 * counter in words 12-13 from 0, stream 0 in words 14-15; output words in
 * order, a u64 = two consecutive words, low first). ---- */

/* (common/chacha.c: czk__chacha_block64) */

/* ---- Blake2b-512, unkeyed (RFC 7693), for inputs of at most 128 bytes. ---- */

static const uint64_t b2b_iv[8] = {
    0x6a09e667f3bcc908ULL, 0xbb67ae8584caa73bULL, 0x3c6ef372fe94f82bULL, 0xa54ff53a5f1d36f1ULL,
    0x510e527fade682d1ULL, 0x9b05688c2b3e6c1fULL, 0x1f83d9abfb41bd6bULL, 0x5be0cd19137e2179ULL,
};

static const uint8_t b2b_sigma[12][16] = {
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
    {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3},
    {11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4},
    {7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8},
    {9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13},
    {2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9},
    {12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11},
    {13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10},
    {6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5},
    {10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0},
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
    {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3},
};

#define ROTR64(x, n) (((x) >> (n)) | ((x) << (64 - (n))))
#define B2G(a, b, c, d, x, y)                                                           \
    do {                                                                                \
        a = a + b + (x); d = ROTR64(d ^ a, 32);                                         \
        c = c + d; b = ROTR64(b ^ c, 24);                                               \
        a = a + b + (y); d = ROTR64(d ^ a, 16);                                         \
        c = c + d; b = ROTR64(b ^ c, 63);                                               \
    } while (0)

static void b2b_compress(uint64_t h[8], const uint8_t block[128], uint64_t t, int last)
{
    uint64_t v[16], m[16];
    for (int i = 0; i < 16; i++) {
        m[i] = 0;
        for (int j = 7; j >= 0; j--) m[i] = m[i] << 8 | block[8 * i + j];
    }
    memcpy(v, h, 8 * sizeof *h);
    memcpy(v + 8, b2b_iv, sizeof b2b_iv);
    v[12] ^= t; /* bytes hashed so far, including this block (inputs < 2^64) */
    if (last) v[14] = ~v[14];
    for (int r = 0; r < 12; r++) {
        const uint8_t *s = b2b_sigma[r];
        B2G(v[0], v[4], v[8], v[12], m[s[0]], m[s[1]]);
        B2G(v[1], v[5], v[9], v[13], m[s[2]], m[s[3]]);
        B2G(v[2], v[6], v[10], v[14], m[s[4]], m[s[5]]);
        B2G(v[3], v[7], v[11], v[15], m[s[6]], m[s[7]]);
        B2G(v[0], v[5], v[10], v[15], m[s[8]], m[s[9]]);
        B2G(v[1], v[6], v[11], v[12], m[s[10]], m[s[11]]);
        B2G(v[2], v[7], v[8], v[13], m[s[12]], m[s[13]]);
        B2G(v[3], v[4], v[9], v[14], m[s[14]], m[s[15]]);
    }
    for (int i = 0; i < 8; i++) h[i] ^= v[i] ^ v[i + 8];
}

void czk__fc_blake2b(uint8_t *out, size_t outlen, const uint8_t *key, size_t keylen, const uint8_t *in,
                     size_t len)
{
    CZK_ASSERT(outlen >= 1 && outlen <= 64 && keylen <= 64);
    uint64_t h[8];
    uint8_t block[128];
    memcpy(h, b2b_iv, sizeof h);
    h[0] ^= 0x01010000ULL ^ (uint64_t)keylen << 8 ^ (uint64_t)outlen; /* parameter block, fanout = depth = 1 */
    uint64_t t = 0;
    if (keylen) { /* RFC 7693 section 3.3: the key, zero padded, is the first block */
        memset(block, 0, sizeof block);
        memcpy(block, key, keylen);
        t = 128;
        b2b_compress(h, block, t, len == 0);
        if (len == 0) goto done;
    }
    for (;;) {
        size_t n = len > 128 ? 128 : len;
        memset(block, 0, sizeof block);
        memcpy(block, in, n);
        t += n;
        in += n;
        len -= n;
        b2b_compress(h, block, t, len == 0);
        if (len == 0) break;
    }
done:
    for (size_t i = 0; i < outlen; i++) out[i] = (uint8_t)(h[i / 8] >> (8 * (i % 8)));
}

void czk__fc_blake2b512(uint8_t out[64], const uint8_t *in, size_t len)
{
    czk__fc_blake2b(out, 64, NULL, 0, in, len);
}

/* ---- graph ---- */

static uint64_t bytes_le_mod(const uint8_t *h, size_t n, uint64_t m);

static void porep_seed(uint8_t out[32], const char *dst, const czk_fc_shape *s)
{
    uint8_t buf[64];
    size_t n = strlen(dst);
    memcpy(buf, dst, n);
    czk_fc_porep_id(buf + n, s->proof);
    czk__fc_sha256(out, buf, n + 32);
}

void czk__fc_graph_init(czk__fc_graph *g, const czk_fc_shape *s)
{
    uint8_t seed[32];
    porep_seed(seed, "Filecoin_DRSample", s);
    for (int i = 0; i < 7; i++)
        g->drg_key[i] = (uint32_t)seed[4 * i] | (uint32_t)seed[4 * i + 1] << 8 | (uint32_t)seed[4 * i + 2] << 16 |
                        (uint32_t)seed[4 * i + 3] << 24;
    porep_seed(seed, "Filecoin_Feistel", s);
    for (int i = 0; i < 4; i++) {
        g->feistel_keys[i] = 0;
        for (int j = 7; j >= 0; j--) g->feistel_keys[i] = g->feistel_keys[i] << 8 | seed[8 * i + j];
    }
    /* feistel.rs precompute(8 nodes): smallest power of 4 (>= 4) not below it */
    uint64_t n = (uint64_t)CZK_FC_EXP_DEGREE * s->nodes, p4 = 4;
    unsigned log4 = 1;
    while (p4 < n) {
        p4 *= 4;
        log4++;
    }
    g->half_bits = log4;
    g->right_mask = (1ULL << log4) - 1;
    g->left_mask = g->right_mask << log4;
    g->nodes = s->nodes;
    g->api_v1_1 = s->api_v1_1;
}

void czk__fc_drg_parents(uint32_t out[CZK_FC_DRG_DEGREE], const czk__fc_graph *g, uint64_t node)
{
    if (node < 2) {
        memset(out, 0, CZK_FC_DRG_DEGREE * sizeof *out);
        return;
    }
    uint32_t key[8];
    memcpy(key, g->drg_key, 7 * sizeof(uint32_t));
    key[7] = (uint32_t)node;
    uint32_t buf[16];
    czk__chacha_block64(buf, key, 0, 0, 8);
    unsigned w = 0;
    const uint64_t m_prime = CZK_FC_DRG_DEGREE - 1;
    uint64_t meta = node * m_prime;
    /* ceil(log2(meta)), meta >= 10: exact integer form of the f64 expression */
    uint64_t n_buckets = 64 - (uint64_t)__builtin_clzll(meta - 1);
    uint32_t *other = g->api_v1_1 ? out + 1 : out;
    for (unsigned i = 0; i < m_prime; i++) {
        uint64_t r1 = (uint64_t)buf[w] | (uint64_t)buf[w + 1] << 32;
        uint64_t r2 = (uint64_t)buf[w + 2] | (uint64_t)buf[w + 3] << 32;
        w += 4; /* 5 parents x 4 words = 20 of the 16-word block: refill below */
        if (w == 16) {
            czk__chacha_block64(buf, key, 1, 0, 8);
            w = 0;
        }
        uint64_t bucket = r1 % n_buckets + 1;
        uint64_t hi = meta < (1ULL << bucket) ? meta : (1ULL << bucket);
        uint64_t lo = hi >> 1 > 2 ? hi >> 1 : 2;
        uint64_t dist = lo + r2 % (hi - lo + 1);
        uint32_t parent = (uint32_t)((meta - dist) / m_prime);
        other[i] = parent == node ? (uint32_t)node - 1 : parent;
    }
    out[g->api_v1_1 ? 0 : m_prime] = (uint32_t)node - 1;
}

static uint64_t feistel_round(uint64_t right, uint64_t key, uint64_t mask)
{
    uint8_t data[16], h[64];
    for (int i = 0; i < 8; i++) {
        data[i] = (uint8_t)(right >> (56 - 8 * i));
        data[8 + i] = (uint8_t)(key >> (56 - 8 * i));
    }
    czk__fc_blake2b512(h, data, 16);
    uint64_t r = 0;
    for (int i = 0; i < 8; i++) r = r << 8 | h[i];
    return r & mask;
}

static uint64_t feistel_encode(const czk__fc_graph *g, uint64_t index)
{
    uint64_t left = (index & g->left_mask) >> g->half_bits, right = index & g->right_mask;
    for (int r = 0; r < 3; r++) {
        uint64_t l = right, nr = left ^ feistel_round(right, g->feistel_keys[r], g->right_mask);
        left = l;
        right = nr;
    }
    return left << g->half_bits | right;
}

void czk__fc_exp_parents(uint32_t out[CZK_FC_EXP_DEGREE], const czk__fc_graph *g, uint64_t node)
{
    uint64_t n = g->nodes * CZK_FC_EXP_DEGREE;
    for (unsigned i = 0; i < CZK_FC_EXP_DEGREE; i++) {
        uint64_t u = feistel_encode(g, node * CZK_FC_EXP_DEGREE + i);
        while (u >= n) u = feistel_encode(g, u);
        out[i] = (uint32_t)(u / CZK_FC_EXP_DEGREE);
    }
}

void czk_fc_parents(uint32_t out[CZK_FC_PARENTS], const czk_fc_shape *s, uint64_t node)
{
    czk__fc_graph g;
    czk__fc_graph_init(&g, s);
    czk__fc_drg_parents(out, &g, node);
    czk__fc_exp_parents(out + CZK_FC_DRG_DEGREE, &g, node);
}

uint64_t czk__fc_challenge(const czk_fc_shape *s, const czk_fr *replica_id, const uint8_t seed[32], uint32_t j)
{
    uint8_t buf[68], h[32];
    czk_fr_to_bytes(buf, replica_id);
    memcpy(buf + 32, seed, 32);
    for (int b = 0; b < 4; b++) buf[64 + b] = (uint8_t)(j >> (8 * b));
    czk__fc_sha256(h, buf, sizeof buf);
    return bytes_le_mod(h, 32, s->nodes - 1) + 1; /* (h as a 256-bit LE integer) mod (nodes - 1) + 1 */
}

void czk_fc_challenges(uint64_t *out, const czk_fc_shape *s, const czk_fr *replica_id, const uint8_t seed[32],
                       uint32_t k)
{
    for (uint32_t i = 0; i < s->challenges; i++) out[i] = czk__fc_challenge(s, replica_id, seed, k * s->challenges + i);
}

/* ---- Synthetic PoRep (challenges.rs, mod synthetic): ChaCha20 (RFC 8439,
 * nonce "synth-porep\0") keyed with a keyed Blake2b-256. Synthetic
 * challenge i = LE integer of keystream bytes [32 i, 32 i + 32) of the
 * "Generation" stream, mod (nodes - 1), + 1; PoRep challenge j = synthetic
 * challenge number (u32 LE of bytes [4 j, 4 j + 4) of the "Selection"
 * stream) mod num_synth. ---- */

static void synth_key(uint32_t key[8], const char *dst, const uint8_t a[32], const uint8_t b[32])
{
    uint8_t msg[64], k[32];
    memcpy(msg, a, 32);
    memcpy(msg + 32, b, 32);
    czk__fc_blake2b(k, 32, (const uint8_t *)dst, strlen(dst), msg, 64);
    for (int i = 0; i < 8; i++)
        key[i] = (uint32_t)k[4 * i] | (uint32_t)k[4 * i + 1] << 8 | (uint32_t)k[4 * i + 2] << 16 |
                 (uint32_t)k[4 * i + 3] << 24;
}

/* bytes [off, off + n) of the RFC 8439 ChaCha20 keystream, n <= 32, off % n == 0 */
static void chacha20_ietf_bytes(uint8_t *out, const uint32_t key[8], uint64_t off, size_t n)
{
    static const uint8_t nonce[12] = {'s', 'y', 'n', 't', 'h', '-', 'p', 'o', 'r', 'e', 'p', 0};
    uint32_t nw[3], blk[16];
    for (int i = 0; i < 3; i++)
        nw[i] = (uint32_t)nonce[4 * i] | (uint32_t)nonce[4 * i + 1] << 8 | (uint32_t)nonce[4 * i + 2] << 16 |
                (uint32_t)nonce[4 * i + 3] << 24;
    uint32_t counter = (uint32_t)(off / 64);
    czk__chacha_block64(blk, key, (uint64_t)counter | (uint64_t)nw[0] << 32, (uint64_t)nw[1] | (uint64_t)nw[2] << 32,
                         20);
    for (size_t b = 0; b < n; b++) {
        size_t pos = off % 64 + b;
        out[b] = (uint8_t)(blk[pos / 4] >> (8 * (pos % 4)));
    }
}

static uint64_t bytes_le_mod(const uint8_t *h, size_t n, uint64_t m)
{
    unsigned __int128 r = 0;
    for (size_t b = n; b-- > 0;) r = ((r << 8) | h[b]) % m;
    return (uint64_t)r;
}

uint64_t czk__fc_synth_challenge(uint64_t nodes, uint64_t num_synth, const uint8_t replica_id[32],
                                 const uint8_t comm_r[32], const uint8_t seed[32], uint32_t j, uint64_t *synth_index)
{
    uint32_t key[8];
    uint8_t b[32];
    synth_key(key, "filecoin.io|PoRep|1|Synthetic|1|Selection", replica_id, seed);
    chacha20_ietf_bytes(b, key, (uint64_t)j * 4, 4);
    uint64_t idx = ((uint64_t)b[0] | (uint64_t)b[1] << 8 | (uint64_t)b[2] << 16 | (uint64_t)b[3] << 24) % num_synth;
    if (synth_index) *synth_index = idx;
    return czk__fc_synth_nth(nodes, replica_id, comm_r, idx);
}

uint64_t czk__fc_synth_nth(uint64_t nodes, const uint8_t replica_id[32], const uint8_t comm_r[32], uint64_t i)
{
    uint32_t key[8];
    uint8_t b[32];
    synth_key(key, "filecoin.io|PoRep|1|Synthetic|1|Generation", replica_id, comm_r);
    chacha20_ietf_bytes(b, key, i * 32, 32);
    return bytes_le_mod(b, 32, nodes - 1) + 1;
}

int czk_fc_proof_is_synthetic(czk_fc_proof p) { return p >= CZK_FC_2KIB_V1_1_SYNTH && p <= CZK_FC_64GIB_V1_1_SYNTH; }

uint64_t czk__fc_c1_challenge(const czk_fc_c1 *c, uint32_t j)
{
    const czk_fc_shape *s = &c->shape;
    uint8_t rid[32], cr[32];
    czk_fr_to_bytes(rid, &c->replica_id);
    czk_fr_to_bytes(cr, &c->comm_r);
    if (czk_fc_proof_is_ni(s->proof)) {
        static const char tag[] = "filecoin.io|PoRep|1|NonInteractive|1";
        uint8_t buf[sizeof tag - 1 + 68], h[32];
        memcpy(buf, tag, sizeof tag - 1);
        memcpy(buf + sizeof tag - 1, rid, 32);
        memcpy(buf + sizeof tag - 1 + 32, cr, 32);
        for (int b = 0; b < 4; b++) buf[sizeof tag - 1 + 64 + b] = (uint8_t)(j >> (8 * b));
        czk__fc_sha256(h, buf, sizeof buf);
        return bytes_le_mod(h, 32, s->nodes - 1) + 1;
    }
    if (!czk_fc_proof_is_synthetic(s->proof)) return czk__fc_challenge(s, &c->replica_id, c->seed, j);
    uint64_t num_synth = s->nodes < (1ULL << 18) ? s->nodes : (1ULL << 18);
    return czk__fc_synth_challenge(s->nodes, num_synth, rid, cr, c->seed, j, NULL);
}

void czk_fc_c1_challenges(uint64_t *out, const czk_fc_c1 *c, uint32_t k)
{
    for (uint32_t i = 0; i < c->shape.challenges; i++) out[i] = czk__fc_c1_challenge(c, k * c->shape.challenges + i);
}
