/* SHA-256: native against OpenSSL; the gadget against the native hash, with
 * bellpepper's exact constraint counts (docs/filecoin.md#gadget-counts). */
#include <openssl/sha.h>
#include <stdlib.h>

#include "runner.h"

#include "gadgets/gadgets_lc.h"
#include "czk/sha256.h"
#include "gadgets/sha256_witness.h"


CZK_TEST(sha256_native_vs_openssl)
{
    czk_rng *rng = czk_test_rng();
    uint8_t buf[4096], a[32], b[32];
    for (size_t len = 0; len <= 300; len++) {
        czk_rng_bytes(rng, buf, len);
        czk_sha256(a, buf, len);
        SHA256(buf, len, b);
        CHECK_MSG(memcmp(a, b, 32) == 0, "length %zu", len);
    }
    static const size_t big[] = {1000, 4095, 4096};
    for (size_t k = 0; k < 3; k++) {
        czk_rng_bytes(rng, buf, big[k]);
        /* streamed in uneven pieces */
        czk_sha256_ctx c;
        czk_sha256_init(&c);
        size_t off = 0;
        while (off < big[k]) {
            size_t n = 1 + czk_rng_below(rng, 200);
            if (n > big[k] - off) n = big[k] - off;
            czk_sha256_update(&c, buf + off, n);
            off += n;
        }
        czk_sha256_final(&c, a);
        SHA256(buf, big[k], b);
        CHECK_MSG(memcmp(a, b, 32) == 0, "length %zu", big[k]);
    }
    /* FIPS 180-4 "abc" */
    czk_sha256(a, "abc", 3);
    static const uint8_t abc[32] = {0xba, 0x78, 0x16, 0xbf, 0x8f, 0x01, 0xcf, 0xea, 0x41, 0x41, 0x40,
                                    0xde, 0x5d, 0xae, 0x22, 0x23, 0xb0, 0x03, 0x61, 0xa3, 0x96, 0x17,
                                    0x7a, 0x9c, 0xb4, 0x10, 0xff, 0x61, 0xf2, 0x00, 0x15, 0xad};
    CHECK_MEM(a, abc, 32);
}

/* Allocate bits MSB-first per byte in namespaces "input bit i". */
static int alloc_input_bits(czk_cs *cs, czk_bool *bits, const uint8_t *bytes, size_t nbytes)
{
    for (size_t i = 0; i < 8 * nbytes; i++) {
        czk_cs_ns_push(cs, "input bit", i);
        czk_status s = CZK_LC_DISPATCH(cs->lc_kind, czk_bit_alloc, (cs, &bits[i], (bytes[i / 8] >> (7 - i % 8)) & 1));
        czk_cs_ns_pop(cs);
        if (s != CZK_OK) return 0;
    }
    return 1;
}

static void bits_to_bytes_be(uint8_t *out, const czk_bool *bits, size_t nbytes)
{
    for (size_t i = 0; i < nbytes; i++) {
        out[i] = 0;
        for (int j = 0; j < 8; j++) out[i] = (uint8_t)(out[i] << 1 | bits[8 * i + j].value);
    }
}

CZK_TEST(sha256_compression_count_and_value)
{
    czk_rng *rng = czk_test_rng();
    uint8_t msg[64];
    czk_rng_bytes(rng, msg, 64);
    czk_cs *cs;
    REQUIRE_OK(czk_cs_create(&cs, CZK_CS_TEST, CZK_LC_VEC, NULL));
    czk_bool in[512], out[256];
    REQUIRE(alloc_input_bits(cs, in, msg, 64));
    czk_cs_ns_push(cs, "sha256", CZK_NOIDX);
    REQUIRE_OK(czk_sha256_block_no_padding_vec(cs, out, in));
    czk_cs_ns_pop(cs);
    CHECK_EQ_U64(cs->n_constraints - 512, 25840);
    CHECK_OK(czk_cs_test_check(cs));
    uint32_t st[8];
    memcpy(st, CZK_SHA256_IV, sizeof(st));
    czk_sha256_compress(st, msg);
    uint8_t got[32], want[32];
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 4; j++) want[4 * i + j] = (uint8_t)(st[i] >> (24 - 8 * j));
    bits_to_bytes_be(got, out, 32);
    CHECK_MEM(got, want, 32);
    czk_cs_destroy(cs);
}

CZK_TEST(sha256_full_hash_count_and_value)
{
    czk_rng *rng = czk_test_rng();
    uint8_t msg[64];
    czk_rng_bytes(rng, msg, 64);
    czk_cs *cs;
    REQUIRE_OK(czk_cs_create(&cs, CZK_CS_TEST, CZK_LC_VEC, NULL));
    czk_bool in[512], out[256];
    REQUIRE(alloc_input_bits(cs, in, msg, 64));
    czk_cs_ns_push(cs, "sha256", CZK_NOIDX);
    REQUIRE_OK(czk_sha256_gadget_vec(cs, out, in, 512));
    czk_cs_ns_pop(cs);
    CHECK_EQ_U64(cs->n_constraints - 512, 44874);
    CHECK_OK(czk_cs_test_check(cs));
    uint8_t got[32], want[32];
    czk_sha256(want, msg, 64);
    bits_to_bytes_be(got, out, 32);
    CHECK_MEM(got, want, 32);
    czk_cs_destroy(cs);
}

CZK_TEST(sha256_all_constant_input_is_free)
{
    czk_cs *cs;
    REQUIRE_OK(czk_cs_create(&cs, CZK_CS_TEST, CZK_LC_VEC, NULL));
    czk_bool in[512], out[256];
    for (int i = 0; i < 512; i++) in[i] = czk_bool_const(i == 0);
    /* bellpepper test_blank_hash: padding block of the empty message */
    REQUIRE_OK(czk_sha256_block_no_padding_vec(cs, out, in));
    CHECK_EQ_U64(cs->n_constraints, 0);
    CHECK_EQ_U64(cs->n_aux, 0);
    uint8_t got[32], want[32];
    czk_sha256(want, "", 0);
    bits_to_bytes_be(got, out, 32);
    CHECK_MEM(got, want, 32);
    for (int i = 0; i < 256; i++) CHECK(out[i].kind == CZK_BOOL_CONST);
    /* the full gadget on constant bytes */
    czk_bool msg[24 * 8];
    const char *text = "all constant, no cost!!!";
    for (int i = 0; i < 24 * 8; i++) msg[i] = czk_bool_const((text[i / 8] >> (7 - i % 8)) & 1);
    REQUIRE_OK(czk_sha256_gadget_vec(cs, out, msg, 24 * 8));
    CHECK_EQ_U64(cs->n_constraints, 0);
    czk_sha256(want, text, 24);
    bits_to_bytes_be(got, out, 32);
    CHECK_MEM(got, want, 32);
    czk_cs_destroy(cs);
}

/* Random lengths through the full gadget (PROVE backend, then a*b = c). */
CZK_TEST(sha256_gadget_random_lengths)
{
    czk_rng *rng = czk_test_rng();
    size_t iters = czk_test_iters(getenv("CZK_TEST_ASAN") ? 2 : 6);
    for (size_t it = 0; it < iters; it++) {
        size_t len = it == 0 ? 0 : (size_t)czk_rng_below(rng, 130);
        uint8_t msg[130], got[32], want[32];
        czk_rng_bytes(rng, msg, len);
        czk_cs *cs;
        REQUIRE_OK(czk_cs_create(&cs, CZK_CS_PROVE, (czk_lc_kind)(it % CZK_LC_KIND_COUNT), NULL));
        czk_bool in[130 * 8], out[256];
        REQUIRE(alloc_input_bits(cs, in, msg, len));
        REQUIRE_OK(CZK_LC_DISPATCH(cs->lc_kind, czk_sha256_gadget, (cs, out, in, 8 * len)));
        REQUIRE_OK(czk_cs_finalize(cs));
        CHECK_OK(czk_cs_prove_check(cs));
        czk_sha256(want, msg, len);
        bits_to_bytes_be(got, out, 32);
        CHECK_MSG(memcmp(got, want, 32) == 0, "length %zu", len);
        czk_cs_destroy(cs);
    }
    czk_cs *cs;
    REQUIRE_OK(czk_cs_create(&cs, CZK_CS_TEST, CZK_LC_VEC, NULL));
    czk_bool out[256], in7[7] = {czk_bool_const(0)};
    CHECK(czk_sha256_gadget_vec(cs, out, in7, 7) == CZK_ERR_INVALID_ARG);
    czk_cs_destroy(cs);
}

/* Same R1CS for every LC variant (hash of the test CS), and one flipped
 * witness bit is caught and named. */
CZK_TEST(sha256_variants_identical_and_flip_detected)
{
    czk_rng *rng = czk_test_rng();
    uint8_t msg[64];
    czk_rng_bytes(rng, msg, 64);
    char h0[65] = "", h[65];
    for (int kind = 0; kind < CZK_LC_KIND_COUNT; kind++) {
        czk_cs *cs;
        REQUIRE_OK(czk_cs_create(&cs, CZK_CS_TEST, (czk_lc_kind)kind, NULL));
        czk_bool in[512], out[256];
        REQUIRE(alloc_input_bits(cs, in, msg, 64));
        czk_cs_ns_push(cs, "sha256", CZK_NOIDX);
        REQUIRE_OK(CZK_LC_DISPATCH(cs->lc_kind, czk_sha256_block_no_padding, (cs, out, in)));
        czk_cs_ns_pop(cs);
        CHECK_EQ_U64(cs->n_constraints - 512, 25840);
        czk_cs_test_hash(cs, h);
        if (kind == 0) memcpy(h0, h, 65);
        else CHECK_MSG(strcmp(h, h0) == 0, "variant %s differs", czk_lc_kind_name((czk_lc_kind)kind));
        if (kind == 0) {
            for (int t = 0; t < 8; t++) {
                uint32_t vi = (uint32_t)czk_rng_below(rng, cs->n_aux);
                czk_fr val, flipped;
                REQUIRE_OK(czk_cs_value(cs, &val, czk_var_aux(vi)));
                flipped = czk_fr_is_zero(&val) ? CZK_FR_ONE : CZK_FR_ZERO;
                REQUIRE_OK(czk_cs_test_set(cs, czk_var_aux(vi), &flipped));
                int64_t bad = czk_cs_test_which_unsatisfied(cs);
                CHECK_MSG(bad >= 0, "flipping aux %u (%s) went unnoticed", vi, czk_cs_test_var_name(cs, czk_var_aux(vi)));
                if (bad >= 0) CHECK(czk_cs_test_check(cs) == CZK_ERR_UNSATISFIED && strstr(czk_last_error(), "'") != NULL);
                REQUIRE_OK(czk_cs_test_set(cs, czk_var_aux(vi), &val));
            }
            CHECK_OK(czk_cs_test_check(cs));
            /* a named constraint deep inside */
            CHECK(strcmp(czk_cs_test_constraint_name(cs, 512), "sha256/w extension 16/first xor for s0/xor of bit 0/xor constraint") == 0);
        }
        czk_cs_destroy(cs);
    }
}

/* Cross-check of two backends on a real gadget: a, b, c and the densities of
 * PROVE equal the SHAPE matrices (CSR) times the witness, recomputed here. */
CZK_TEST(sha256_prove_equals_shape_times_witness)
{
    czk_rng *rng = czk_test_rng();
    uint8_t msg[64];
    czk_rng_bytes(rng, msg, 64);
    czk_cs *p, *s;
    REQUIRE_OK(czk_cs_create(&p, CZK_CS_PROVE, CZK_LC_INLINE2, NULL));
    REQUIRE_OK(czk_cs_create(&s, CZK_CS_SHAPE, CZK_LC_INLINE2, NULL));
    czk_bool in[512], out[256];
    czk_cs *both[2] = {p, s};
    for (int k = 0; k < 2; k++) {
        REQUIRE(alloc_input_bits(both[k], in, msg, 64));
        czk_anum x;
        czk_fr xv;
        czk_fr_random(&xv, rng);
        REQUIRE_OK(czk_anum_alloc_inline2(both[k], &x, &xv));
        REQUIRE_OK(czk_anum_inputize_inline2(both[k], &x)); /* an input between constraints */
        REQUIRE_OK(czk_sha256_gadget_inline2(both[k], out, in, 512));
        REQUIRE_OK(czk_cs_finalize(both[k]));
    }
    czk_cs_assignment as;
    REQUIRE_OK(czk_cs_prove_get(p, &as));
    czk_csr m[3];
    REQUIRE_OK(czk_cs_shape_csr(s, &m[0], &m[1], &m[2]));
    REQUIRE(m[0].n_rows == as.n_constraints && m[0].n_cols == as.n_input + as.n_aux);
    const czk_fr *res[3] = {as.a, as.b, as.c};
    size_t ncols = m[0].n_cols;
    uint8_t *dens[3];
    for (int k = 0; k < 3; k++) dens[k] = calloc(ncols, 1);
    int bad = 0;
    for (int k = 0; k < 3; k++)
        for (uint64_t r = 0; r < m[k].n_rows && !bad; r++) {
            czk_fr acc = CZK_FR_ZERO, t;
            for (uint64_t j = m[k].row_ptr[r]; j < m[k].row_ptr[r + 1]; j++) {
                uint32_t col = m[k].col[j];
                const czk_fr *w = col < as.n_input ? &as.input[col] : &as.aux[col - as.n_input];
                czk_fr_mul(&t, w, &m[k].val[j]);
                czk_fr_add(&acc, &acc, &t);
                if (!czk_fr_is_zero(&m[k].val[j])) dens[k][col] = 1;
            }
            if (!czk_fr_eq(&acc, &res[k][r])) bad = 1;
        }
    CHECK(!bad);
    /* densities: A over aux only, B over inputs and aux */
    size_t pa = 0, pbi = 0, pba = 0;
    for (size_t c = 0; c < ncols; c++) {
        if (c >= as.n_input) {
            size_t i = c - as.n_input;
            int ab = (int)(as.a_aux_density[i / 64] >> (i % 64)) & 1, bb = (int)(as.b_aux_density[i / 64] >> (i % 64)) & 1;
            CHECK_EQ_U64(ab, dens[0][c]);
            CHECK_EQ_U64(bb, dens[1][c]);
            pa += dens[0][c];
            pba += dens[1][c];
        } else {
            int bi = (int)(as.b_input_density[c / 64] >> (c % 64)) & 1;
            CHECK_EQ_U64(bi, dens[1][c]);
            pbi += dens[1][c];
        }
    }
    CHECK_EQ_U64(as.a_aux_popcount, pa);
    CHECK_EQ_U64(as.b_input_popcount, pbi);
    CHECK_EQ_U64(as.b_aux_popcount, pba);
    CHECK_EQ_U64(as.n_input, 2);
    for (int k = 0; k < 3; k++) {
        free(dens[k]);
        czk_csr_clear(&m[k]);
    }
    czk_cs_destroy(p);
    czk_cs_destroy(s);
}

/* ---- the witness-only compression on words (src/gadgets/sha256_witness.c) ---- */

/* A gadget bit of a random kind: allocated, negated allocated or constant
 * (probability pc/256), with a random value; allocated on cs. */
static czk_bool random_bit(czk_cs *cs, czk_rng *rng, unsigned pc, int *ok)
{
    unsigned r = (unsigned)czk_rng_below(rng, 256);
    int v = (int)czk_rng_below(rng, 2);
    if (r < pc) return czk_bool_const(v);
    czk_bool b;
    int neg = (r & 1) != 0;
    if (CZK_LC_DISPATCH(cs->lc_kind, czk_bit_alloc, (cs, &b, v ^ neg)) != CZK_OK) *ok = 0;
    return neg ? czk_bool_not(b) : b;
}

/* Message and IV of random kinds, built identically on each constraint
 * system from the same seed. iv_mode 0: the constant IV; 1: allocated
 * words; 2: words of mixed kinds. */
static int build_inputs(czk_cs *cs, uint64_t seed, unsigned pc, int iv_mode, czk_bool in[512], czk_u32 iv[8])
{
    czk_rng rng;
    czk_rng_seed(&rng, seed);
    int ok = 1;
    for (int i = 0; i < 512; i++) in[i] = random_bit(cs, &rng, pc, &ok);
    for (int j = 0; j < 8; j++) {
        if (iv_mode == 0) {
            czk_u32_constant(&iv[j], CZK_SHA256_IV[j]);
            continue;
        }
        iv[j].value = 0;
        for (int i = 0; i < 32; i++) {
            iv[j].bits[i] = random_bit(cs, &rng, iv_mode == 1 ? 0 : pc, &ok);
            iv[j].value |= (uint32_t)iv[j].bits[i].value << i;
        }
    }
    return ok;
}

/* WITNESS on words == the bit-level gadget (TEST backend): every aux value
 * in order, the output words (values, kinds, variables) and the digest. */
CZK_TEST(sha256_witness_words_equal_bit_gadget)
{
    czk_rng *rng = czk_test_rng();
    size_t iters = czk_test_iters(getenv("CZK_TEST_ASAN") ? 6 : 40);
    static const unsigned pcs[] = {0, 3, 40, 128, 250, 256};
    for (size_t it = 0; it < iters; it++) {
        uint64_t seed = czk_rng_u64(rng);
        unsigned pc = pcs[it % 6];
        int iv_mode = (int)(it / 6 % 3);
        czk_cs *wcs, *tcs;
        czk_cs_sizes z = {1, 40000, 0};
        REQUIRE_OK(czk_cs_create(&wcs, CZK_CS_WITNESS, CZK_LC_VEC, &z));
        REQUIRE_OK(czk_cs_create(&tcs, CZK_CS_TEST, CZK_LC_VEC, NULL));
        czk_bool win[512], tin[512];
        czk_u32 wiv[8], tiv[8], wout[8], tout[8];
        REQUIRE(build_inputs(wcs, seed, pc, iv_mode, win, wiv));
        REQUIRE(build_inputs(tcs, seed, pc, iv_mode, tin, tiv));
        uint32_t n0 = wcs->n_aux;
        CHECK_EQ_U64(n0, tcs->n_aux);
        REQUIRE(czk__sha256_compression_witness(wcs, wout, win, wiv) == 1);
        REQUIRE_OK(czk_sha256_compression_vec(tcs, tout, tin, tiv));
        CHECK_OK(czk_cs_test_check(tcs));
        CHECK_EQ_U64(wcs->n_aux, tcs->n_aux);
        const czk_fr *wi, *wa, *ti, *ta;
        size_t nwi, nwa, nti, nta;
        REQUIRE_OK(czk_cs_witness_get(wcs, &wi, &nwi, &wa, &nwa));
        REQUIRE_OK(czk_cs_witness_get(tcs, &ti, &nti, &ta, &nta));
        if (nwa == nta) {
            size_t bad = nwa;
            for (size_t i = 0; i < nwa && bad == nwa; i++)
                if (memcmp(&wa[i], &ta[i], sizeof(czk_fr))) bad = i;
            CHECK_MSG(bad == nwa, "seed %llu pc %u iv %d: aux %zu (of %zu) differs", (unsigned long long)seed, pc,
                      iv_mode, bad, nwa);
        }
        int same = 1;
        for (int j = 0; j < 8; j++) {
            same &= wout[j].value == tout[j].value;
            for (int i = 0; i < 32; i++) {
                const czk_bool *x = &wout[j].bits[i], *y = &tout[j].bits[i];
                same &= x->kind == y->kind && x->value == y->value && (x->kind == CZK_BOOL_CONST || x->var == y->var);
            }
        }
        CHECK_MSG(same, "seed %llu pc %u iv %d: output words differ", (unsigned long long)seed, pc, iv_mode);
        /* and the digest is SHA-256's compression of the logical values */
        uint32_t st[8];
        uint8_t blk[64] = {0};
        for (int j = 0; j < 8; j++) st[j] = tiv[j].value;
        for (int i = 0; i < 512; i++) blk[i / 8] |= (uint8_t)(tin[i].value << (7 - i % 8));
        czk_sha256_compress(st, blk);
        for (int j = 0; j < 8; j++) CHECK(wout[j].value == st[j]);
        czk_cs_destroy(wcs);
        czk_cs_destroy(tcs);
    }
}

/* The fast path steps aside where it does not apply (other backends, too
 * little reserved capacity): the gadget then runs bit by bit, same values. */
CZK_TEST(sha256_witness_words_fallback)
{
    czk_cs *small, *prove;
    REQUIRE_OK(czk_cs_create(&small, CZK_CS_WITNESS, CZK_LC_VEC, NULL));
    REQUIRE_OK(czk_cs_create(&prove, CZK_CS_PROVE, CZK_LC_VEC, NULL));
    czk_bool in[512];
    czk_u32 iv[8], out[8];
    REQUIRE(build_inputs(prove, 5, 3, 1, in, iv));
    CHECK(czk__sha256_compression_witness(prove, out, in, iv) == 0);
    REQUIRE(build_inputs(small, 5, 3, 1, in, iv));
    CHECK(czk__sha256_compression_witness(small, out, in, iv) == 0);
    czk_bool bits[256];
    uint8_t msg[64], want[32], got[32];
    for (int i = 0; i < 64; i++) msg[i] = (uint8_t)(i * 7 + 1);
    czk_bool m[512];
    REQUIRE(alloc_input_bits(small, m, msg, 64));
    REQUIRE_OK(czk_sha256_gadget_vec(small, bits, m, 512));
    czk_sha256(want, msg, 64);
    bits_to_bytes_be(got, bits, 32);
    CHECK_MEM(got, want, 32);
    czk_cs_destroy(small);
    czk_cs_destroy(prove);
}
