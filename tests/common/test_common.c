#include "runner.h"

#include "czk/czk.h"

CZK_TEST(status_strings)
{
    for (int s = 0; s < CZK_STATUS_COUNT; s++) {
        const char *n = czk_status_str((czk_status)s);
        CHECK(n != NULL && n[0] != 0);
        CHECK(strcmp(n, "unknown status") != 0);
    }
    CHECK(strcmp(czk_status_str((czk_status)999), "unknown status") == 0);
}

CZK_TEST(error_messages)
{
    czk_status s = czk_error(CZK_ERR_FORMAT, "file %s: offset %d", "x.bin", 12);
    CHECK(s == CZK_ERR_FORMAT);
    CHECK(strcmp(czk_last_error(), "file x.bin: offset 12") == 0);
    s = czk_error_context(s, "reading %s", "params");
    CHECK(strcmp(czk_last_error(), "reading params: file x.bin: offset 12") == 0);
    czk_error_clear();
    CHECK(czk_last_error()[0] == 0);
}

/* ChaCha20 block function against RFC 8439 §2.3.2's test vector. */
CZK_TEST(chacha20_rfc8439)
{
    czk_rng r;
    czk_rng_seed(&r, 0);
    for (int i = 0; i < 8; i++)
        r.key[i] = (uint32_t)(4 * i) | (uint32_t)(4 * i + 1) << 8 | (uint32_t)(4 * i + 2) << 16 |
                   (uint32_t)(4 * i + 3) << 24;
    r.nonce[0] = 0x09000000;
    r.nonce[1] = 0x4a000000;
    r.nonce[2] = 0x00000000;
    r.counter = 1;
    r.pos = 64;
    uint8_t out[16];
    czk_rng_bytes(&r, out, 16);
    static const uint8_t expect[16] = {0x10, 0xf1, 0xe7, 0xe4, 0xd1, 0x3b, 0x59, 0x15,
                                       0x50, 0x0f, 0xdd, 0x1f, 0xa3, 0x20, 0x71, 0xc4};
    CHECK_MEM(out, expect, 16);
}

CZK_TEST(rng_reproducible_and_uniform)
{
    czk_rng a, b;
    czk_rng_seed(&a, 42);
    czk_rng_seed(&b, 42);
    for (int i = 0; i < 100; i++) CHECK_EQ_U64(czk_rng_u64(&a), czk_rng_u64(&b));
    czk_rng_seed_stream(&b, 42, 1);
    int same = 0;
    for (int i = 0; i < 100; i++) same += czk_rng_u64(&a) == czk_rng_u64(&b);
    CHECK(same == 0);
    /* below(): every value of a small range appears, none outside it */
    unsigned counts[7] = {0};
    for (int i = 0; i < 7000; i++) {
        uint64_t v = czk_rng_below(czk_test_rng(), 7);
        REQUIRE(v < 7);
        counts[v]++;
    }
    for (int i = 0; i < 7; i++) CHECK(counts[i] > 800 && counts[i] < 1200);
    CHECK_EQ_U64(czk_rng_below(czk_test_rng(), 1), 0);
    uint8_t buf[64];
    CHECK_OK(czk_os_random(buf, sizeof buf));
}
