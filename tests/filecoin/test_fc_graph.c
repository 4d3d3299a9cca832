/* Filecoin graph, challenges and label: against OpenSSL (Blake2b, ChaCha20,
 * SHA-256), GMP (challenge reduction) and rust-fil-proofs' published parent
 * cache digests (storage-proofs-porep/parent_cache.json). */
#include <stdlib.h>

#include <gmp.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>

#include "runner.h"

#include "czk/czk.h"
#include "czk/filecoin.h"
#include "common/chacha.h"
#include "filecoin/internal.h"

CZK_TEST(blake2b512_vs_openssl)
{
    uint8_t in[128], a[64], b[64];
    unsigned blen;
    for (size_t len = 0; len <= 128; len++) {
        czk_rng_bytes(czk_test_rng(), in, len);
        czk__fc_blake2b512(a, in, len);
        EVP_Digest(in, len, b, &blen, EVP_blake2b512(), NULL);
        CHECK_MSG(blen == 64 && !memcmp(a, b, 64), "blake2b length %zu", len);
    }
}

/* The block function with 20 rounds is ChaCha20 (OpenSSL: 16-byte IV =
 * 32-bit counter || 96-bit nonce; rand_chacha's 64-bit counter and stream
 * map onto it word for word); 8 rounds is the same code path. */
CZK_TEST(chacha_block_vs_openssl_chacha20)
{
    for (int it = 0; it < 20; it++) {
        uint8_t keyb[32], iv[16] = {0}, zeros[128] = {0}, ks[128];
        uint32_t key[8], blk[16];
        czk_rng_bytes(czk_test_rng(), keyb, 32);
        for (int i = 0; i < 8; i++)
            key[i] = (uint32_t)keyb[4 * i] | (uint32_t)keyb[4 * i + 1] << 8 | (uint32_t)keyb[4 * i + 2] << 16 |
                     (uint32_t)keyb[4 * i + 3] << 24;
        uint64_t stream = czk_rng_u64(czk_test_rng());
        for (int i = 0; i < 8; i++) iv[8 + i] = (uint8_t)(stream >> (8 * i));
        EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
        int n;
        REQUIRE(EVP_EncryptInit_ex(ctx, EVP_chacha20(), NULL, keyb, iv) == 1);
        REQUIRE(EVP_EncryptUpdate(ctx, ks, &n, zeros, 128) == 1);
        EVP_CIPHER_CTX_free(ctx);
        for (uint64_t ctr = 0; ctr < 2; ctr++) {
            czk__chacha_block64(blk, key, ctr, stream, 20);
            uint8_t out[64];
            for (int i = 0; i < 16; i++)
                for (int b = 0; b < 4; b++) out[4 * i + b] = (uint8_t)(blk[i] >> (8 * b));
            CHECK_MEM(out, ks + 64 * ctr, 64);
        }
    }
}

/* ChaCha8, all-zero key and nonce (Strombergson's test vectors,
 * draft-strombergson-chacha-test-vectors TC1, 8 rounds, 256-bit key). */
CZK_TEST(chacha8_known_answer)
{
    static const uint8_t expect[32] = {0x3e, 0x00, 0xef, 0x2f, 0x89, 0x5f, 0x40, 0xd6, 0x7f, 0x5b, 0xb8,
                                       0xe8, 0x1f, 0x09, 0xa5, 0xa1, 0x2c, 0x84, 0x0e, 0xc3, 0xce, 0x9a,
                                       0x7f, 0x3b, 0x18, 0x1b, 0xe1, 0x88, 0xef, 0x71, 0x1a, 0x1e};
    uint32_t key[8] = {0}, blk[16];
    czk__chacha_block64(blk, key, 0, 0, 8);
    uint8_t out[32];
    for (int i = 0; i < 8; i++)
        for (int b = 0; b < 4; b++) out[4 * i + b] = (uint8_t)(blk[i] >> (8 * b));
    CHECK_MEM(out, expect, 32);
}

static void hex_to_bytes(uint8_t *out, const char *hex, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned v;
        sscanf(hex + 2 * i, "%2x", &v);
        out[i] = (uint8_t)v;
    }
}

/* SHA-256 of the whole parent cache (per node the 14 parents as u32 LE),
 * as ParentCache::generate hashes it. */
static void cache_digest(uint8_t out[32], const czk_fc_shape *s)
{
    czk__fc_graph g;
    czk__fc_graph_init(&g, s);
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    EVP_DigestInit_ex(ctx, EVP_sha256(), NULL);
    uint8_t buf[4096 * 56];
    size_t fill = 0;
    for (uint64_t v = 0; v < s->nodes; v++) {
        uint32_t p[CZK_FC_PARENTS];
        czk__fc_drg_parents(p, &g, v);
        czk__fc_exp_parents(p + CZK_FC_DRG_DEGREE, &g, v);
        for (int i = 0; i < CZK_FC_PARENTS; i++)
            for (int b = 0; b < 4; b++) buf[fill++] = (uint8_t)(p[i] >> (8 * b));
        if (fill == sizeof buf) {
            EVP_DigestUpdate(ctx, buf, fill);
            fill = 0;
        }
    }
    EVP_DigestUpdate(ctx, buf, fill);
    unsigned n;
    EVP_DigestFinal_ex(ctx, out, &n);
    EVP_MD_CTX_free(ctx);
}

static int digest_is_one_of(const uint8_t d[32], const char *a, const char *b)
{
    uint8_t x[32], y[32];
    hex_to_bytes(x, a, 32);
    hex_to_bytes(y, b, 32);
    return !memcmp(d, x, 32) || !memcmp(d, y, 32);
}

/* parent_cache.json lists, per sector size, the digests of the V1 and V1_1
 * graphs (the file names hash the graph, not the proof name, so both
 * versions must land on one of the two and not on the same one). */
CZK_TEST(parent_cache_digest_2kib)
{
    czk_init();
    czk_fc_shape v1, v11;
    REQUIRE_OK(czk_fc_shape_of_proof(&v1, CZK_FC_2KIB_V1));
    REQUIRE_OK(czk_fc_shape_of_proof(&v11, CZK_FC_2KIB_V1_1));
    uint8_t d1[32], d11[32];
    cache_digest(d1, &v1);
    cache_digest(d11, &v11);
    const char *a = "3da49221e2ed55371b86d0bf3d6526fcf128af61bed904f966428db1b531750d";
    const char *b = "840057702eea7652cf97e04306c30fe57174714d90de156a25eddd6075c25b97";
    CHECK(digest_is_one_of(d1, a, b));
    CHECK(digest_is_one_of(d11, a, b));
    CHECK(memcmp(d1, d11, 32) != 0);
}

CZK_TEST(parent_cache_digest_8mib)
{
    czk_init();
    czk_fc_shape v11;
    REQUIRE_OK(czk_fc_shape_of_proof(&v11, CZK_FC_8MIB_V1_1));
    if (getenv("CZK_TEST_ASAN")) return; /* 2M Blake2b calls: the 2KiB test covers the code */
    uint8_t d11[32];
    cache_digest(d11, &v11);
    CHECK(digest_is_one_of(d11, "03cd13565ded97c240a5f52e54295ad127bd0461b57904cb3a4d79b097bbecab",
                           "a76604f2f59f2744c7151653bbb1d8596b6b57d295e6fa6c1f0c41d725b502ce"));
}

CZK_TEST(parents_structure)
{
    czk_init();
    czk_fc_shape s;
    REQUIRE_OK(czk_fc_shape_of_size(&s, 1ULL << 35));
    for (int it = 0; it < 200; it++) {
        uint64_t v = 2 + czk_rng_below(czk_test_rng(), s.nodes - 2);
        uint32_t p[CZK_FC_PARENTS];
        czk_fc_parents(p, &s, v);
        CHECK_EQ_U64(p[0], v - 1);
        for (int i = 1; i < CZK_FC_DRG_DEGREE; i++) CHECK(p[i] < v);
        for (int i = CZK_FC_DRG_DEGREE; i < CZK_FC_PARENTS; i++) CHECK(p[i] < s.nodes);
    }
    uint32_t p[CZK_FC_PARENTS];
    czk_fc_parents(p, &s, 1);
    for (int i = 0; i < CZK_FC_DRG_DEGREE; i++) CHECK_EQ_U64(p[i], 0);
}

/* challenge = (SHA-256(replica_id || seed || j LE) as LE integer) mod (nodes - 1) + 1 */
CZK_TEST(challenges_vs_gmp)
{
    czk_init();
    const uint64_t sizes[] = {1ULL << 11, 1ULL << 23, 1ULL << 35, 1ULL << 36};
    for (int z = 0; z < 4; z++) {
        czk_fc_shape s;
        REQUIRE_OK(czk_fc_shape_of_size(&s, sizes[z]));
        czk_fr rid;
        czk_fr_random(&rid, czk_test_rng());
        uint8_t seed[32], buf[68], h[32];
        czk_rng_bytes(czk_test_rng(), seed, 32);
        for (uint32_t k = 0; k < s.partitions; k++) {
            uint64_t ch[64];
            czk_fc_challenges(ch, &s, &rid, seed, k);
            for (uint32_t i = 0; i < s.challenges; i++) {
                uint32_t j = k * s.challenges + i;
                czk_fr_to_bytes(buf, &rid);
                memcpy(buf + 32, seed, 32);
                memcpy(buf + 64, &j, 4);
                EVP_Digest(buf, 68, h, NULL, EVP_sha256(), NULL);
                mpz_t x;
                mpz_init(x);
                mpz_import(x, 32, -1, 1, 0, 0, h);
                mpz_mod_ui(x, x, (unsigned long)(s.nodes - 1));
                uint64_t want = mpz_get_ui(x) + 1;
                mpz_clear(x);
                CHECK_EQ_U64(ch[i], want);
                CHECK(ch[i] >= 1 && ch[i] < s.nodes);
            }
        }
    }
}

CZK_TEST(label_vs_openssl)
{
    czk_init();
    czk_fr rid, parents[CZK_FC_LABEL_PARENTS], lab;
    czk_fr_random(&rid, czk_test_rng());
    for (int i = 0; i < CZK_FC_LABEL_PARENTS; i++) czk_fr_random(&parents[i], czk_test_rng());
    uint32_t layer = 7;
    uint64_t node = 0x123456789ULL;
    czk_fc_label(&lab, &rid, layer, node, parents);
    uint8_t buf[64 + 32 * CZK_FC_LABEL_PARENTS] = {0}, h[32], got[32];
    czk_fr_to_bytes(buf, &rid);
    buf[35] = 7;
    buf[39] = 0x01;
    buf[40] = 0x23;
    buf[41] = 0x45;
    buf[42] = 0x67;
    buf[43] = 0x89;
    for (int i = 0; i < CZK_FC_LABEL_PARENTS; i++) czk_fr_to_bytes(buf + 64 + 32 * i, &parents[i]);
    EVP_Digest(buf, sizeof buf, h, NULL, EVP_sha256(), NULL);
    h[31] &= 0x3f;
    czk_fr_to_bytes(got, &lab);
    CHECK_MEM(got, h, 32);
    /* slot order: layer 1 cycles the 6 DRG labels; later layers the 14 */
    czk_fr drg[6], exp[8], slots[37];
    for (int i = 0; i < 6; i++) czk_fr_from_u64(&drg[i], (uint64_t)i);
    for (int i = 0; i < 8; i++) czk_fr_from_u64(&exp[i], (uint64_t)(6 + i));
    czk_fc_label_parents(slots, 1, drg, exp);
    for (int i = 0; i < 37; i++) CHECK(czk_fr_eq(&slots[i], &drg[i % 6]));
    czk_fc_label_parents(slots, 2, drg, exp);
    for (int i = 0; i < 37; i++) {
        czk_fr w;
        czk_fr_from_u64(&w, (uint64_t)(i % 14));
        CHECK(czk_fr_eq(&slots[i], &w));
    }
}

CZK_TEST(blake2b_keyed_and_long_vs_openssl)
{
    uint8_t in[300], key[64], a[64], b[64];
    unsigned blen;
    for (size_t len = 0; len <= 300; len += 7) {
        czk_rng_bytes(czk_test_rng(), in, len);
        czk__fc_blake2b(a, 64, NULL, 0, in, len);
        EVP_Digest(in, len, b, &blen, EVP_blake2b512(), NULL);
        CHECK_MSG(!memcmp(a, b, 64), "unkeyed blake2b length %zu", len);
    }
    EVP_MAC *mac = EVP_MAC_fetch(NULL, "BLAKE2BMAC", NULL);
    REQUIRE(mac);
    for (int it = 0; it < 20; it++) {
        size_t len = czk_rng_below(czk_test_rng(), 300), kl = 1 + czk_rng_below(czk_test_rng(), 64);
        size_t ol = 1 + czk_rng_below(czk_test_rng(), 64);
        czk_rng_bytes(czk_test_rng(), in, len);
        czk_rng_bytes(czk_test_rng(), key, kl);
        czk__fc_blake2b(a, ol, key, kl, in, len);
        EVP_MAC_CTX *ctx = EVP_MAC_CTX_new(mac);
        unsigned int osz = (unsigned int)ol;
        OSSL_PARAM params[] = {OSSL_PARAM_construct_uint("size", &osz), OSSL_PARAM_construct_end()};
        size_t got = 0;
        REQUIRE(EVP_MAC_init(ctx, key, kl, params) == 1);
        REQUIRE(EVP_MAC_update(ctx, in, len) == 1);
        REQUIRE(EVP_MAC_final(ctx, b, &got, sizeof b) == 1);
        EVP_MAC_CTX_free(ctx);
        CHECK_MSG(got == ol && !memcmp(a, b, ol), "keyed blake2b len %zu key %zu out %zu", len, kl, ol);
    }
    EVP_MAC_free(mac);
}

/* storage-proofs-porep challenges.rs test_synth_challenges_against_hardcoded:
 * nodes 2^10, replica_id = 55, comm_r = 101, 21 synthetic challenges,
 * rand = [1; 32]. */
CZK_TEST(synthetic_challenges_known_answer)
{
    static const uint64_t synth[21] = {178, 297, 869, 211, 875, 477, 94, 781, 124, 332, 856,
                                       801, 176, 692, 429, 691, 290, 204, 986, 210, 973};
    static const uint64_t porep[10] = {176, 781, 801, 986, 290, 211, 692, 856, 986, 332};
    uint8_t rid[32] = {55}, cr[32] = {101}, rand[32];
    memset(rand, 1, 32);
    for (uint64_t i = 0; i < 21; i++) CHECK_EQ_U64(czk__fc_synth_nth(1024, rid, cr, i), synth[i]);
    for (uint32_t j = 0; j < 10; j++) {
        uint64_t idx;
        CHECK_EQ_U64(czk__fc_synth_challenge(1024, 21, rid, cr, rand, j, &idx), porep[j]);
        CHECK(idx < 21);
    }
}

/* NI-PoRep: SHA-256(tag || replica_id || comm_r || j LE) mod (nodes - 1) + 1, with 126
 * partitions of 18 challenges for 32GiB (13 x 2 for the small sizes). */
CZK_TEST(ni_porep_challenges_vs_gmp)
{
    czk_init();
    czk_fc_shape s;
    REQUIRE_OK(czk_fc_shape_of_proof(&s, CZK_FC_32GIB_V1_2_NI));
    CHECK_EQ_U64(s.partitions, 126);
    CHECK_EQ_U64(s.challenges, 18);
    CHECK(czk_fc_proof_is_ni(s.proof) && !czk_fc_proof_is_synthetic(s.proof));
    CHECK(!strcmp(czk_fc_proof_vanilla_key(s.proof), "StackedDrg32GiBV1"));
    czk_fc_c1 c;
    REQUIRE_OK(czk_fc_c1_alloc(&c, &s));
    czk_fr_random(&c.replica_id, czk_test_rng());
    czk_fr_random(&c.comm_r, czk_test_rng());
    const char tag[] = "filecoin.io|PoRep|1|NonInteractive|1";
    for (uint32_t k = 0; k < s.partitions; k += 25) {
        uint64_t ch[18];
        czk_fc_c1_challenges(ch, &c, k);
        for (uint32_t i = 0; i < 18; i++) {
            uint8_t buf[sizeof tag - 1 + 68], h[32];
            uint32_t j = k * 18 + i;
            memcpy(buf, tag, sizeof tag - 1);
            czk_fr_to_bytes(buf + sizeof tag - 1, &c.replica_id);
            czk_fr_to_bytes(buf + sizeof tag - 1 + 32, &c.comm_r);
            memcpy(buf + sizeof tag - 1 + 64, &j, 4);
            EVP_Digest(buf, sizeof buf, h, NULL, EVP_sha256(), NULL);
            mpz_t x;
            mpz_init(x);
            mpz_import(x, 32, -1, 1, 0, 0, h);
            mpz_mod_ui(x, x, (unsigned long)(s.nodes - 1));
            CHECK_EQ_U64(ch[i], mpz_get_ui(x) + 1);
            mpz_clear(x);
        }
    }
    czk_fc_c1_free(&c);
    REQUIRE_OK(czk_fc_shape_of_proof(&s, CZK_FC_2KIB_V1_2_NI));
    CHECK_EQ_U64(s.partitions, 13);
    CHECK(czk_fc_gen_c1(&c, &s, 1, NULL, NULL) == CZK_ERR_UNSUPPORTED);
}
