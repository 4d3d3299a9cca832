/* Filecoin SHA-256 leaf hash and label derivation gadgets: exact constraint
 * counts (docs/filecoin.md#gadget-counts) and agreement with the native hashes. */
#include <stdlib.h>

#include "runner.h"

#include "gadgets/gadgets_lc.h"
#include "czk/sha256.h"

static void random_fr_bytes(czk_rng *rng, uint8_t out[32])
{
    czk_fr f;
    czk_fr_random(&f, rng);
    czk_fr_to_bytes(out, &f);
}

static int fr_is_bytes(const czk_fr *v, const uint8_t le[32])
{
    czk_fr w;
    if (czk_fr_from_bytes(&w, le) != CZK_OK) return 0;
    return czk_fr_eq(v, &w);
}

/* rust-fil-proofs storage-proofs-core util.rs test hash_leaf_bits_circuit. */
CZK_TEST(sha256_leaf_hash_count_45387)
{
    czk_rng *rng = czk_test_rng();
    uint8_t left[32], right[32], want[32];
    random_fr_bytes(rng, left);
    random_fr_bytes(rng, right);
    czk_cs *cs;
    REQUIRE_OK(czk_cs_create(&cs, CZK_CS_TEST, CZK_LC_VEC, NULL));
    czk_bool lb[256], rb[256];
    czk_anum out;
    czk_cs_ns_push(cs, "left", CZK_NOIDX);
    REQUIRE_OK(czk_bits_alloc_bytes_le_vec(cs, lb, left, 32));
    czk_cs_ns_pop(cs);
    czk_cs_ns_push(cs, "right", CZK_NOIDX);
    REQUIRE_OK(czk_bits_alloc_bytes_le_vec(cs, rb, right, 32));
    czk_cs_ns_pop(cs);
    czk_cs_ns_push(cs, "hash_leaf_circuit", CZK_NOIDX);
    REQUIRE_OK(czk_sha256_hash_leaf_bits_vec(cs, &out, lb, 256, rb, 256));
    czk_cs_ns_pop(cs);
    CHECK_EQ_U64(cs->n_constraints, 45387);
    CHECK_OK(czk_cs_test_check(cs));
    czk_sha256_node_native(want, left, right);
    CHECK(fr_is_bytes(&out.value, want));
    czk_fr v;
    REQUIRE_OK(czk_cs_value(cs, &v, out.var));
    CHECK(czk_fr_eq(&v, &out.value));
    /* a flipped input bit breaks the circuit */
    czk_fr flipped = lb[17].value ? CZK_FR_ZERO : CZK_FR_ONE;
    REQUIRE_OK(czk_cs_test_set(cs, lb[17].var, &flipped));
    CHECK(czk_cs_test_check(cs) == CZK_ERR_UNSATISFIED);
    CHECK(strstr(czk_last_error(), "hash_leaf_circuit/") != NULL);
    czk_cs_destroy(cs);
}

/* hash2_circuit: the same hash from two allocated numbers. */
CZK_TEST(sha256_hash2_of_numbers)
{
    czk_rng *rng = czk_test_rng();
    uint8_t left[32], right[32], want[32];
    random_fr_bytes(rng, left);
    random_fr_bytes(rng, right);
    czk_fr a, b;
    REQUIRE_OK(czk_fr_from_bytes(&a, left));
    REQUIRE_OK(czk_fr_from_bytes(&b, right));
    for (int kind = 0; kind < CZK_LC_KIND_COUNT; kind += 3) {
        czk_cs *cs;
        REQUIRE_OK(czk_cs_create(&cs, CZK_CS_PROVE, (czk_lc_kind)kind, NULL));
        czk_anum an, bn, out;
        REQUIRE_OK(CZK_LC_DISPATCH(cs->lc_kind, czk_anum_alloc, (cs, &an, &a)));
        REQUIRE_OK(CZK_LC_DISPATCH(cs->lc_kind, czk_anum_alloc, (cs, &bn, &b)));
        REQUIRE_OK(CZK_LC_DISPATCH(cs->lc_kind, czk_sha256_hash2, (cs, &out, &an, &bn)));
        REQUIRE_OK(czk_cs_finalize(cs));
        CHECK_OK(czk_cs_prove_check(cs));
        czk_sha256_node_native(want, left, right);
        CHECK(fr_is_bytes(&out.value, want));
        czk_cs_destroy(cs);
    }
}

/* rust-fil-proofs storage-proofs-porep stacked/circuit/create_label.rs
 * test_create_label: 256 + 37 * 256 allocated bits, constant layer and node. */
static void label_case(czk_cs_backend backend, czk_lc_kind kind, int check_flip)
{
    czk_rng *rng = czk_test_rng();
    uint8_t id[32], parents[37][32], want[32];
    random_fr_bytes(rng, id);
    for (int i = 0; i < 14; i++) random_fr_bytes(rng, parents[i]);
    for (int i = 14; i < 37; i++) memcpy(parents[i], parents[(i - 14) % 14], 32);
    uint32_t layer = 3;
    uint64_t node = 22;
    czk_cs *cs;
    REQUIRE_OK(czk_cs_create(&cs, backend, kind, NULL));
    static czk_bool pb[37][256];
    czk_bool idb[256];
    const czk_bool *pp[37];
    for (unsigned i = 0; i < 37; i++) {
        czk_cs_ns_push(cs, "parents", i);
        REQUIRE_OK(CZK_LC_DISPATCH(kind, czk_bits_alloc_bytes_be, (cs, pb[i], parents[i], 32)));
        czk_cs_ns_pop(cs);
        pp[i] = pb[i];
    }
    czk_cs_ns_push(cs, "id", CZK_NOIDX);
    REQUIRE_OK(CZK_LC_DISPATCH(kind, czk_bits_alloc_bytes_be, (cs, idb, id, 32)));
    czk_cs_ns_pop(cs);
    CHECK_EQ_U64(cs->n_aux, 9728);
    CHECK_EQ_U64(cs->n_constraints, 9728);
    czk_u32 l;
    czk_u64 n;
    czk_u32_constant(&l, layer);
    czk_u64_constant(&n, node);
    czk_anum out;
    czk_cs_ns_push(cs, "create_label", CZK_NOIDX);
    REQUIRE_OK(CZK_LC_DISPATCH(kind, czk_label_gadget, (cs, &out, idb, 256, pp, 256, &l, &n)));
    czk_cs_ns_pop(cs);
    CHECK_EQ_U64(cs->n_constraints, 532025);
    czk_label_native(want, id, layer, node, (const uint8_t(*)[32])parents);
    CHECK(fr_is_bytes(&out.value, want));
    if (backend == CZK_CS_PROVE) {
        REQUIRE_OK(czk_cs_finalize(cs));
        CHECK_OK(czk_cs_prove_check(cs));
    }
    if (backend == CZK_CS_TEST) {
        CHECK_OK(czk_cs_test_check(cs));
        if (check_flip) {
            czk_fr flipped = pb[36][100].value ? CZK_FR_ZERO : CZK_FR_ONE;
            REQUIRE_OK(czk_cs_test_set(cs, pb[36][100].var, &flipped));
            CHECK(czk_cs_test_check(cs) == CZK_ERR_UNSATISFIED);
            CHECK(strstr(czk_last_error(), "create_label/hash/block 19/") != NULL);
        }
    }
    czk_cs_destroy(cs);
}

CZK_TEST(label_count_532025_prove)
{
    label_case(CZK_CS_PROVE, CZK_LC_VEC, 0);
    if (!getenv("CZK_TEST_ASAN")) label_case(CZK_CS_PROVE, CZK_LC_INLINE4, 0);
}

CZK_TEST(label_test_cs_and_flip)
{
    if (getenv("CZK_TEST_ASAN")) return; /* 532k named constraints: too slow under ASan */
    label_case(CZK_CS_TEST, CZK_LC_INLINE1, 1);
}

/* The native label against an independent OpenSSL computation of the same
 * byte layout. */
CZK_TEST(label_native_layout)
{
    czk_rng *rng = czk_test_rng();
    uint8_t id[32], parents[37][32], a[32], buf[64 + 37 * 32];
    czk_rng_bytes(rng, id, 32);
    czk_rng_bytes(rng, (uint8_t *)parents, sizeof(parents));
    czk_label_native(a, id, 0x01020304u, 0x05060708090a0b0cull, (const uint8_t(*)[32])parents);
    memset(buf, 0, sizeof(buf));
    memcpy(buf, id, 32);
    static const uint8_t hdr[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
    memcpy(buf + 32, hdr, 12);
    memcpy(buf + 64, parents, sizeof(parents));
    uint8_t b[32];
    czk_sha256(b, buf, sizeof(buf));
    b[31] &= 0x3f;
    CHECK_MEM(a, b, 32);
}
