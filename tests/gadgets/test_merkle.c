/* Native Merkle trees (Poseidon; SHA-256 nodes against OpenSSL) in Filecoin's shapes. */
#include <openssl/evp.h>
#include <stdlib.h>

#include "czk/merkle.h"
#include "czk/poseidon.h"
#include "runner.h"

static const czk_merkle_shape POSEIDON_SHAPES[] = {
    {CZK_MERKLE_POSEIDON, 2, 6, 0, 0}, {CZK_MERKLE_POSEIDON, 4, 3, 0, 0}, {CZK_MERKLE_POSEIDON, 8, 2, 0, 0},
    {CZK_MERKLE_POSEIDON, 8, 2, 2, 0}, {CZK_MERKLE_POSEIDON, 8, 2, 8, 0}, {CZK_MERKLE_POSEIDON, 8, 2, 4, 2},
    {CZK_MERKLE_POSEIDON, 8, 2, 8, 2}, {CZK_MERKLE_POSEIDON, 8, 2, 2, 4},
};
#define NSHAPES (sizeof POSEIDON_SHAPES / sizeof POSEIDON_SHAPES[0])

CZK_TEST(merkle_known_root) {
    czk_merkle_shape s = {CZK_MERKLE_POSEIDON, 2, 2, 0, 0};
    czk_fr leaves[4], root, want, sib[2], r2;
    czk_fr_from_u64(&leaves[0], 1);
    czk_fr_from_u64(&leaves[1], 0);
    czk_fr_from_u64(&leaves[2], 0);
    czk_fr_from_u64(&leaves[3], 1);
    REQUIRE_OK(czk_fr_from_hex(&want, "0x1effebb7b26ad9eb30eb6385ae6b74ae77cc72b8cb2b5ad2efbb8be3e291e671"));
    for (uint64_t i = 0; i < 4; i++) {
        REQUIRE_OK(czk_merkle_tree_path(&root, sib, &s, leaves, i));
        CHECK(czk_fr_eq(&root, &want));
        REQUIRE_OK(czk_merkle_root_from_path(&r2, &s, &leaves[i], sib, i));
        CHECK(czk_fr_eq(&r2, &want));
    }
}

CZK_TEST(merkle_shapes_paths) {
    czk_rng *rng = czk_test_rng();
    for (size_t k = 0; k < NSHAPES; k++) {
        const czk_merkle_shape *s = &POSEIDON_SHAPES[k];
        REQUIRE_OK(czk_merkle_shape_check(s));
        uint64_t n = czk_merkle_leaves(s);
        CHECK_EQ_U64(n, 64ULL * (s->sub_arity ? s->sub_arity : 1) * (s->top_arity ? s->top_arity : 1));
        czk_fr *leaves = malloc(n * sizeof(czk_fr)), sib[CZK_MERKLE_MAX_LEVELS * 7], root, r2;
        REQUIRE(leaves);
        for (uint64_t i = 0; i < n; i++) czk_fr_random(&leaves[i], rng);
        /* The root computed level by level by hand for base trees + sub + top. */
        uint64_t per_base = 1ULL << (s->base_height * (s->base_arity == 2 ? 1 : s->base_arity == 4 ? 2 : 3));
        uint64_t nb = n / per_base;
        czk_fr *level = malloc(n * sizeof(czk_fr));
        REQUIRE(level);
        memcpy(level, leaves, n * sizeof(czk_fr));
        uint64_t m = n;
        for (unsigned h = 0; h < s->base_height; h++) {
            for (uint64_t j = 0; j < m / s->base_arity; j++)
                REQUIRE_OK(czk_poseidon_hash(&level[j], &level[j * s->base_arity], s->base_arity));
            m /= s->base_arity;
        }
        CHECK_EQ_U64(m, nb);
        if (s->sub_arity) {
            for (uint64_t j = 0; j < m / s->sub_arity; j++)
                REQUIRE_OK(czk_poseidon_hash(&level[j], &level[j * s->sub_arity], s->sub_arity));
            m /= s->sub_arity;
        }
        if (s->top_arity) {
            for (uint64_t j = 0; j < m / s->top_arity; j++)
                REQUIRE_OK(czk_poseidon_hash(&level[j], &level[j * s->top_arity], s->top_arity));
            m /= s->top_arity;
        }
        CHECK_EQ_U64(m, 1);
        for (int it = 0; it < 4; it++) {
            uint64_t idx = it == 0 ? 0 : it == 1 ? n - 1 : czk_rng_below(rng, n);
            REQUIRE_OK(czk_merkle_tree_path(&root, sib, s, leaves, idx));
            CHECK_MSG(czk_fr_eq(&root, &level[0]), "shape %zu: tree root", k);
            REQUIRE_OK(czk_merkle_root_from_path(&r2, s, &leaves[idx], sib, idx));
            CHECK_MSG(czk_fr_eq(&r2, &root), "shape %zu index %llu: path root", k, (unsigned long long)idx);
            /* A wrong index or a wrong sibling gives another root. */
            REQUIRE_OK(czk_merkle_root_from_path(&r2, s, &leaves[idx], sib, idx ^ 1));
            CHECK(!czk_fr_eq(&r2, &root));
            czk_fr_add(&sib[0], &sib[0], &CZK_FR_ONE);
            REQUIRE_OK(czk_merkle_root_from_path(&r2, s, &leaves[idx], sib, idx));
            CHECK(!czk_fr_eq(&r2, &root));
        }
        CHECK(czk_merkle_root_from_path(&r2, s, &leaves[0], sib, n) == CZK_ERR_INVALID_ARG);
        free(level);
        free(leaves);
    }
}

CZK_TEST(merkle_bad_shapes) {
    const czk_merkle_shape bad[] = {
        {CZK_MERKLE_POSEIDON, 3, 2, 0, 0}, {CZK_MERKLE_POSEIDON, 8, 2, 0, 2}, {CZK_MERKLE_POSEIDON, 8, 2, 16, 0},
        {CZK_MERKLE_POSEIDON, 2, 0, 0, 0}, {CZK_MERKLE_POSEIDON, 2, 64, 0, 0}, {CZK_MERKLE_SHA256, 8, 2, 8, 0},
        {(czk_merkle_hasher)7, 2, 2, 0, 0},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK_MSG(czk_merkle_shape_check(&bad[i]) == CZK_ERR_INVALID_ARG, "bad shape %zu accepted", i);
        CHECK(strstr(czk_last_error(), "merkle shape") != NULL);
    }
}

/* SHA-256 nodes against OpenSSL: sha256(children as 32-byte LE) with byte 31 & 0x3f. */
CZK_TEST(merkle_sha256_nodes_and_paths) {
    czk_rng *rng = czk_test_rng();
    static const unsigned AR[3] = {2, 4, 8};
    for (int k = 0; k < 3; k++) {
        czk_fr ch[8], got, want;
        uint8_t buf[8 * 32], d[32];
        unsigned int dl = 0;
        for (int it = 0; it < 20; it++) {
            for (unsigned i = 0; i < AR[k]; i++) {
                czk_fr_random(&ch[i], rng);
                czk_fr_to_bytes(&buf[32 * i], &ch[i]);
            }
            REQUIRE(EVP_Digest(buf, 32 * AR[k], d, &dl, EVP_sha256(), NULL) == 1 && dl == 32);
            d[31] &= 0x3f;
            REQUIRE_OK(czk_fr_from_bytes(&want, d));
            REQUIRE_OK(czk_merkle_hash_node(&got, CZK_MERKLE_SHA256, ch, AR[k]));
            CHECK_MSG(czk_fr_eq(&got, &want), "SHA-256 node of arity %u", AR[k]);
        }
        czk_merkle_shape s = {CZK_MERKLE_SHA256, AR[k], k == 0 ? 6u : k == 1 ? 3u : 2u, 0, 0};
        REQUIRE_OK(czk_merkle_shape_check(&s));
        czk_fr leaves[64], root, r2, sib[14];
        for (int i = 0; i < 64; i++) czk_fr_random(&leaves[i], rng);
        uint64_t idx = czk_rng_below(rng, 64);
        REQUIRE_OK(czk_merkle_tree_path(&root, sib, &s, leaves, idx));
        REQUIRE_OK(czk_merkle_root_from_path(&r2, &s, &leaves[idx], sib, idx));
        CHECK(czk_fr_eq(&root, &r2));
    }
}
