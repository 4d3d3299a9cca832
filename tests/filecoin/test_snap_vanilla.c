/* SnapDeals vanilla proofs (bincode PartitionProof): a real 2KiB partition
 * proof from filecoin-proofs (tests/filecoin/vectors) read, checked,
 * written back byte for byte and satisfying the circuit; the challenges
 * against the reference's for every sector size; sizes; every kind of
 * malformed input named (partition, challenge, field, byte offset); bit
 * flips never accepted; the native check naming what fails; generated
 * updates round-tripped; snap.json. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cs/cs_internal.h"
#include "runner.h"

#include "czk/czk.h"
#include "czk/poseidon.h"
#include "czk/snap.h"
#include "czk/snap_kind.h"

static int asan(void)
{
    return getenv("CZK_TEST_ASAN") != NULL;
}

static const char *vectors(void)
{
    static char dir[4096];
    snprintf(dir, sizeof dir, "%s/tests/filecoin/vectors", CZK_SOURCE_DIR);
    return dir;
}

static uint8_t *slurp(const char *name, size_t *len)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", vectors(), name);
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *d = malloc(n > 0 ? (size_t)n : 1);
    if (d && fread(d, 1, (size_t)n, f) != (size_t)n) free(d), d = NULL;
    fclose(f);
    *len = (size_t)n;
    return d;
}

static int has(const char *needle) { return strstr(czk_last_error(), needle) != NULL; }

#define CHECK_ERR(expr, status, needle)                                                                      \
    do {                                                                                                     \
        czk_status czk__st = (expr);                                                                         \
        CHECK_MSG(czk__st == (status) && has(needle), "%s: status %d (want %d), message \"%s\" (want \"%s\")", \
                  #expr, (int)czk__st, (int)(status), czk_last_error(), needle);                             \
    } while (0)

static void set_u64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i));
}

static void hex_le(uint8_t out[32], const char *hex)
{
    for (int i = 0; i < 32; i++) {
        unsigned v;
        sscanf(hex + 2 * i, "%2x", &v);
        out[i] = (uint8_t)v;
    }
}

/* The real 2KiB vector's snap.json. */
static int real_json(czk_snap_json *m)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/snap.json", vectors());
    return czk_snap_json_read(m, path) == CZK_OK;
}

static czk_status read1(czk_snap_vanilla *v, const czk_snap_json *m, const uint8_t *d, size_t n)
{
    const uint8_t *p[1] = {d};
    size_t l[1] = {n};
    return czk_snap_vanilla_read(v, &m->shape, p, l, 1, m->comm_r_old, m->comm_d_new, m->comm_r_new);
}

/* ---- known answers of the reference ------------------------------------------------ */

/* PoseidonGR through storage-proofs-update's phi and rho (czk-oracle
 * snap-vectors): values as 32-byte little-endian hex. */
CZK_TEST(snap_poseidon_gr_known_answers)
{
    static const struct {
        uint64_t a, b;
        const char *out;
    } kat[] = {
        {0, 0, "b3f18da3b9c14f6cc04be465c31c812e95510e8eb8b13f75263ca08d5c127823"},
        {1, 2, "3c2fe9b59c5f0de453bbb6db5c84af5448c7d4c1fbf41830ab05dbaf9b872c70"}, /* phi(1, 2) */
        {2, 7, "48a2f5ad31acea5f1c8dc857dbe9707b0fe2e3dbb85adbe4d5c52cd4736d0956"}, /* rho(2, 7) */
    };
    for (size_t i = 0; i < sizeof kat / sizeof kat[0]; i++) {
        czk_fr a, b, got, want;
        uint8_t w[32];
        czk_fr_from_u64(&a, kat[i].a);
        czk_fr_from_u64(&b, kat[i].b);
        hex_le(w, kat[i].out);
        REQUIRE_OK(czk_fr_from_bytes(&want, w));
        czk_poseidon_hash2_gr(&got, &a, &b);
        CHECK_MSG(czk_fr_eq(&got, &want), "PoseidonGR(%llu, %llu) differs from the reference",
                  (unsigned long long)kat[i].a, (unsigned long long)kat[i].b);
        if (i == 1) {
            czk_snap_phi(&got, &a, &b);
            CHECK(czk_fr_eq(&got, &want));
        }
        if (i == 2) {
            czk_snap_rho(&got, &a, 7);
            CHECK(czk_fr_eq(&got, &want));
        }
    }
}

/* storage-proofs-update Challenges::new for every sector size of the
 * reference (1KiB .. 64GiB), first and last partition, for one comm_r_new
 * (czk-oracle snap-vectors). */
CZK_TEST(snap_challenges_known_answers)
{
    static const struct {
        uint64_t nodes;
        uint32_t base, sub, top, k;
        uint64_t c[12];
    } kat[] = {
        {32, 8, 4, 0, 0, {16, 16, 27, 29, 4, 31, 9, 15, 14, 14}},
        {64, 8, 0, 0, 0, {16, 56, 46, 19, 62, 41, 39, 51, 53, 44}},
        {128, 8, 2, 0, 0, {16, 92, 59, 114, 39, 79, 115, 26, 75, 46}},
        {256, 8, 4, 0, 0, {16, 238, 78, 126, 122, 206, 53, 75, 215, 220}},
        {512, 8, 8, 0, 0, {16, 238, 78, 126, 122, 206, 53, 75, 215, 220}},
        {512, 8, 8, 0, 1, {459, 428, 316, 339, 394, 491, 282, 372, 477, 307}},
        {1024, 8, 8, 2, 0, {16, 375, 403, 335, 231, 430, 300, 430, 476, 61}},
        {1024, 8, 8, 2, 1, {715, 598, 719, 842, 696, 727, 976, 954, 819, 965}},
        {262144, 8, 0, 0, 0, {60944, 32334, 52858, 19253, 56535, 8315, 38048, 46481, 13786, 5217}},
        {262144, 8, 0, 0, 3, {215256, 231752, 250272, 207456, 217517, 246539, 258263, 248138, 239760, 240153}},
        {524288, 8, 2, 0, 0, {60944, 81703, 95134, 59750, 114125, 65795, 18002, 111979, 24885, 115210}},
        {524288, 8, 2, 0, 3, {411864, 410788, 406632, 501068, 439578, 441880, 469955, 467346, 399784, 409557}},
        {1ULL << 24, 8, 0, 0, 0,
         {978448, 501732, 734670, 904564, 8315, 596298, 383669, 83475, 22404, 884895, 845884, 354148}},
        {1ULL << 24, 8, 0, 0, 15,
         {16378243, 16665565, 16625656, 16287806, 16316568, 16215680, 16649058, 15806154, 16669722, 16149827,
          16583793, 15841492}},
        {1ULL << 30, 8, 8, 0, 0,
         {38727184, 24354463, 30241971, 41976303, 45453716, 18369910, 50690113, 15949863, 41307368, 54308043,
          45802132, 54384449}},
        {1ULL << 30, 8, 8, 0, 15,
         {1007283204, 1034820763, 1019581512, 1050103173, 1023451739, 1043837192, 1072940693, 1025879827,
          1063940627, 1058910673, 1038427142, 1032841234}},
        {1ULL << 31, 8, 8, 2, 0,
         {105836048, 112840527, 125001004, 38801469, 95115545, 2671211, 41686497, 121759424, 22443596, 54308043,
          56455498, 80704976}},
        {1ULL << 31, 8, 8, 2, 15,
         {2081025028, 2027359821, 2100389138, 2110974384, 2047871525, 2058468744, 2034224922, 2023377758,
          2060413554, 2065543633, 2096271875, 2137258500}},
    };
    uint8_t b[32];
    czk_fr comm_r_new;
    hex_le(b, "3f2464cb04d70100c0f991733697f29a54d2e0ad5e916697b03d515129ab6909");
    REQUIRE_OK(czk_fr_from_bytes(&comm_r_new, b));
    for (size_t i = 0; i < sizeof kat / sizeof kat[0]; i++) {
        czk_snap_shape s;
        REQUIRE_OK(czk_snap_shape_custom(&s, kat[i].nodes, kat[i].base, kat[i].sub, kat[i].top));
        uint64_t got[86];
        REQUIRE(s.challenges <= 86);
        REQUIRE_OK(czk_snap_challenges(got, &s, &comm_r_new, kat[i].k));
        size_t n = s.challenges < 12 ? s.challenges : 12;
        for (size_t j = 0; j < n; j++)
            CHECK_MSG(got[j] == kat[i].c[j], "%llu nodes, partition %u, challenge %zu: %llu, the reference %llu",
                      (unsigned long long)kat[i].nodes, kat[i].k, j, (unsigned long long)got[j],
                      (unsigned long long)kat[i].c[j]);
        /* every challenge of partition k lies in partition k's share */
        for (uint32_t j = 0; j < s.challenges; j++)
            CHECK(got[j] >> (s.challenge_bits - s.partition_bits) == kat[i].k);
    }
}

/* ---- sizes ------------------------------------------------------------------------ */

CZK_TEST(snap_vanilla_sizes)
{
    static const struct {
        uint64_t size;
        size_t r, d, part;
    } want[] = {
        {2048, 556, 364, 15064},                          /* 32 + 8 + 8 x 32 + 8 + 10 x (2 x 556 + 364) */
        {8ULL << 20, 1516, 940, 43864},                   /* 6 levels of 8; tree D 18 levels */
        {512ULL << 20, 1996, 1228, 453064},                /* 8 levels; 24 */
        {32ULL << 30, 2484, 1516, 561768},                /* Sub 9 + 1 levels; 30 */
        {64ULL << 30, 2540, 1564, 4144 + 86 * 6644},      /* Top 9 + 1 + 1 levels; 31 */
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        czk_snap_shape s;
        REQUIRE_OK(czk_snap_shape_of(&s, want[i].size));
        CHECK_EQ_U64(czk_snap_tree_r_proof_bytes(&s), want[i].r);
        CHECK_EQ_U64(czk_snap_tree_d_proof_bytes(&s), want[i].d);
        CHECK_EQ_U64(czk_snap_partition_proof_bytes(&s), want[i].part);
    }
}

/* ---- the real proof --------------------------------------------------------------- */

CZK_TEST(snap_vanilla_real)
{
    czk_snap_json m;
    REQUIRE(real_json(&m));
    CHECK(!strcmp(m.proof, "StackedDrg2KiBV1"));
    CHECK_EQ_U64(m.partitions, 1);
    size_t n;
    uint8_t *d = slurp("snap-partition-0.bin", &n);
    REQUIRE(d && n == 15064);
    czk_snap_vanilla v;
    REQUIRE_OK(read1(&v, &m, d, n));
    CHECK_OK(czk_snap_vanilla_check(&v));
    /* the challenges the reference answered are the ones czk derives */
    uint64_t ch[10];
    REQUIRE_OK(czk_snap_challenges(ch, &v.shape, &v.comm_r_new, 0));
    for (uint32_t c = 0; c < 10; c++) {
        CHECK_EQ_U64(v.parts[0].proofs[c].r_old.index, ch[c]);
        CHECK_EQ_U64(v.parts[0].proofs[c].d_new.index, ch[c]);
    }
    uint8_t *w = malloc(n);
    size_t wl = 0;
    REQUIRE(w);
    REQUIRE_OK(czk_snap_partition_encode(w, n, &wl, &v.parts[0], &v.shape));
    CHECK(wl == n && memcmp(w, d, n) == 0);
    /* the circuit of the real proof is satisfied, inputs as the verifier's */
    czk_cs *cs;
    REQUIRE_OK(czk_cs_create(&cs, CZK_CS_TEST, CZK_LC_DEFAULT, NULL));
    REQUIRE_OK(czk_snap_synthesize(cs, &v.shape, &v, 0));
    CHECK_OK(czk_cs_test_check(cs));
    czk_fr pub[4], got;
    REQUIRE_OK(czk_snap_public_inputs(pub, &v.shape, 0, v.h, &v.comm_r_old, &v.comm_d_new, &v.comm_r_new));
    for (uint32_t i = 0; i < 4; i++) {
        REQUIRE_OK(czk_cs_value(cs, &got, czk_var_input(i + 1)));
        CHECK(czk_fr_eq(&got, &pub[i]));
    }
    /* a witness value changed: a named constraint fails */
    czk_fr old, bad;
    czk_var x = czk_var_aux(cs->n_aux / 2);
    REQUIRE_OK(czk_cs_value(cs, &old, x));
    czk_fr_add(&bad, &old, &CZK_FR_ONE);
    REQUIRE_OK(czk_cs_test_set(cs, x, &bad));
    CHECK(czk_cs_test_check(cs) == CZK_ERR_UNSATISFIED);
    int64_t wi = czk_cs_test_which_unsatisfied(cs);
    const char *name = wi >= 0 ? czk_cs_test_constraint_name(cs, (uint64_t)wi) : NULL;
    CHECK_MSG(name && strstr(name, "c_index="), "failing constraint '%s'", name ? name : "(null)");
    czk_cs_destroy(cs);
    czk_snap_vanilla_free(&v);
    /* the directory reader: the vectors are one */
    czk_snap_json m2;
    REQUIRE_OK(czk_snap_dir_read(&v, &m2, vectors()));
    CHECK(!memcmp(m2.comm_r_new, m.comm_r_new, 32));
    czk_snap_vanilla_free(&v);
    free(w);
    free(d);
}

/* ---- malformed input ---------------------------------------------------------------- */

/* Offsets in the 2KiB proof: comm_c 0, apex length 32, leaves 40..295,
 * challenge count 296, challenge c at 304 + 1476 c: proof_r_old (556:
 * variant, root, leaf, path length at +68, element l at +76 + 240 l:
 * hashes length, 7 hashes, index at +232), proof_d_new at +556 (364:
 * path length at +68, element l at +76 + 48 l, index at +40), proof_r_new
 * at +920. */
CZK_TEST(snap_vanilla_malformed)
{
    czk_snap_json m;
    REQUIRE(real_json(&m));
    size_t n;
    uint8_t *d = slurp("snap-partition-0.bin", &n);
    REQUIRE(d && n == 15064);
    uint8_t *b = malloc(n + 1);
    REQUIRE(b);
    czk_snap_vanilla v;

    /* every strict prefix (a sample under ASan) */
    size_t accepted = 0;
    for (size_t cut = 0; cut < n; cut += asan() ? 97 : 1)
        if (read1(&v, &m, d, cut) == CZK_OK) accepted++, czk_snap_vanilla_free(&v);
    CHECK_EQ_U64(accepted, 0);
    CHECK_ERR(read1(&v, &m, d, 0), CZK_ERR_FORMAT, "snap partition proof 0: comm_c: input ends after 0 bytes");
    CHECK_ERR(read1(&v, &m, d, 400), CZK_ERR_FORMAT,
              "snap partition proof 0: challenge 0, proof_r_old, path element 0, hashes[0]: input ends after 400 "
              "bytes, 20 more needed (byte offset 388)");
    /* a trailing byte */
    memcpy(b, d, n);
    b[n] = 0;
    CHECK_ERR(read1(&v, &m, b, n + 1), CZK_ERR_FORMAT, "1 trailing bytes after the proof (byte offset 15064)");
    /* the counts */
    memcpy(b, d, n);
    set_u64(b + 32, 9);
    CHECK_ERR(read1(&v, &m, b, n), CZK_ERR_FORMAT, "apex_leafs: expected 8 elements, found 9 (byte offset 32)");
    memcpy(b, d, n);
    set_u64(b + 296, 86);
    CHECK_ERR(read1(&v, &m, b, n), CZK_ERR_FORMAT,
              "challenge_proofs: expected 10 elements, found 86 (byte offset 296)");
    /* challenge 3: its variants, path lengths, hash counts, indices */
    const size_t c3 = 304 + 3 * 1476;
    memcpy(b, d, n);
    b[c3] = 1;
    CHECK_ERR(read1(&v, &m, b, n), CZK_ERR_FORMAT,
              "challenge 3, proof_r_old, variant: expected 0 (Single, the tree's shape), found 1 (Sub) "
              "(byte offset 4732)");
    memcpy(b, d, n);
    b[c3 + 556] = 9;
    CHECK_ERR(read1(&v, &m, b, n), CZK_ERR_FORMAT, "challenge 3, proof_d_new, variant: expected 0 (Single");
    memcpy(b, d, n);
    set_u64(b + c3 + 920 + 68, 3);
    CHECK_ERR(read1(&v, &m, b, n), CZK_ERR_FORMAT, "challenge 3, proof_r_new, path: expected 2 elements, found 3");
    memcpy(b, d, n);
    set_u64(b + c3 + 556 + 68, 5);
    CHECK_ERR(read1(&v, &m, b, n), CZK_ERR_FORMAT, "challenge 3, proof_d_new, path: expected 6 elements, found 5");
    memcpy(b, d, n);
    set_u64(b + c3 + 76 + 240, 6);
    CHECK_ERR(read1(&v, &m, b, n), CZK_ERR_FORMAT,
              "challenge 3, proof_r_old, path element 1, hashes: expected 7 elements, found 6");
    memcpy(b, d, n);
    set_u64(b + c3 + 76 + 232, 8);
    CHECK_ERR(read1(&v, &m, b, n), CZK_ERR_FORMAT,
              "challenge 3, proof_r_old, path element 0, index: 8 out of range 0..7 (the level's arity is 8)");
    memcpy(b, d, n);
    set_u64(b + c3 + 556 + 76 + 48 * 2 + 40, 2);
    CHECK_ERR(read1(&v, &m, b, n), CZK_ERR_FORMAT,
              "challenge 3, proof_d_new, path element 2, index: 2 out of range 0..1");
    /* 32-byte values >= r */
    memcpy(b, d, n);
    memset(b + 40 + 5 * 32, 0xff, 32);
    CHECK_ERR(read1(&v, &m, b, n), CZK_ERR_NOT_CANONICAL,
              "apex_leafs[5]: 32-byte value is not a field element (>= r) (byte offset 200)");
    memcpy(b, d, n);
    memset(b + c3 + 920 + 4 + 32, 0xff, 32);
    CHECK_ERR(read1(&v, &m, b, n), CZK_ERR_NOT_CANONICAL, "challenge 3, proof_r_new, leaf: 32-byte value is not");
    /* the commitments and the partition count */
    uint8_t big[32];
    memset(big, 0xff, 32);
    const uint8_t *p1[1] = {d};
    size_t l1[1] = {n};
    CHECK_ERR(czk_snap_vanilla_read(&v, &m.shape, p1, l1, 1, m.comm_r_old, big, m.comm_r_new), CZK_ERR_NOT_CANONICAL,
              "comm_d_new is not a field element");
    CHECK_ERR(czk_snap_vanilla_read(&v, &m.shape, p1, l1, 0, m.comm_r_old, m.comm_d_new, m.comm_r_new),
              CZK_ERR_INVALID_ARG, "0 partition proofs, a StackedDrg2KiBV1 update has 1");
    /* the proof read as another size's */
    czk_snap_shape s8;
    REQUIRE_OK(czk_snap_shape_of(&s8, 8ULL << 20));
    const uint8_t *p4[4] = {d, d, d, d};
    size_t l4[4] = {n, n, n, n};
    CHECK_ERR(czk_snap_vanilla_read(&v, &s8, p4, l4, 4, m.comm_r_old, m.comm_d_new, m.comm_r_new), CZK_ERR_FORMAT,
              "apex_leafs: expected 128 elements, found 8 (byte offset 32)");
    free(b);
    free(d);
}

/* Bit flips: one random bit of every byte of the header and of challenge
 * 0's proofs, and of every 16th byte after (every 97th under ASan); the
 * reader or the native check refuses each, none is accepted. */
CZK_TEST(snap_vanilla_bit_flips)
{
    czk_snap_json m;
    REQUIRE(real_json(&m));
    size_t n;
    uint8_t *d = slurp("snap-partition-0.bin", &n);
    REQUIRE(d && n == 15064);
    czk_rng *rng = czk_test_rng();
    size_t accepted = 0, tried = 0, by_reader = 0;
    for (size_t i = 0; i < n; i += asan() ? 97 : i < 304 + 1476 ? 1 : 16) {
        unsigned bit = (unsigned)(czk_rng_u64(rng) % 8);
        d[i] ^= (uint8_t)(1u << bit);
        czk_snap_vanilla v;
        czk_status st = read1(&v, &m, d, n);
        if (st == CZK_OK) {
            if (czk_snap_vanilla_check(&v) == CZK_OK) {
                if (accepted++ == 0) CHECK_MSG(0, "byte %zu bit %u flipped: accepted", i, bit);
            }
            czk_snap_vanilla_free(&v);
        } else {
            by_reader++;
        }
        d[i] ^= (uint8_t)(1u << bit);
        tried++;
    }
    CHECK_EQ_U64(accepted, 0);
    printf("  %zu single-bit flips: %zu refused by the reader, %zu by the native check\n", tried, by_reader,
           tried - by_reader);
    free(d);
}

/* The native check names what fails. */
CZK_TEST(snap_vanilla_check_failures)
{
    czk_snap_json m;
    REQUIRE(real_json(&m));
    size_t n;
    uint8_t *d = slurp("snap-partition-0.bin", &n);
    REQUIRE(d);
    czk_snap_vanilla v;
    REQUIRE_OK(read1(&v, &m, d, n));
    czk_snap_partition *p = &v.parts[0];
    czk_fr t;
    /* leaf_r_new of challenge 4 */
    t = p->proofs[4].r_new.leaf;
    czk_fr_add(&p->proofs[4].r_new.leaf, &t, &CZK_FR_ONE);
    CHECK_ERR(czk_snap_vanilla_check(&v), CZK_ERR_VERIFY, "partition 0 challenge 4 (node");
    p->proofs[4].r_new.leaf = t;
    /* another comm_r_new: other challenges */
    t = v.comm_r_new;
    czk_fr_add(&v.comm_r_new, &t, &CZK_FR_ONE);
    CHECK_ERR(czk_snap_vanilla_check(&v), CZK_ERR_VERIFY, "comm_r_new != Poseidon2(comm_c, root_r_new)");
    v.comm_r_new = t;
    /* comm_c */
    t = p->comm_c;
    czk_fr_add(&p->comm_c, &t, &CZK_FR_ONE);
    CHECK_ERR(czk_snap_vanilla_check(&v), CZK_ERR_VERIFY, "comm_r_old != Poseidon2(comm_c, root_r_old)");
    p->comm_c = t;
    /* an apex leaf */
    t = p->apex_leaves[7];
    czk_fr_add(&p->apex_leaves[7], &t, &CZK_FR_ONE);
    CHECK_ERR(czk_snap_vanilla_check(&v), CZK_ERR_VERIFY, "apex leaves and the partition path do not hash");
    p->apex_leaves[7] = t;
    /* a tree D sibling */
    t = p->proofs[2].d_new.siblings[1];
    czk_fr_add(&p->proofs[2].d_new.siblings[1], &t, &CZK_FR_ONE);
    CHECK_ERR(czk_snap_vanilla_check(&v), CZK_ERR_VERIFY, "challenge 2 (node");
    CHECK(has("proof_d_new: the path does not hash to its root"));
    p->proofs[2].d_new.siblings[1] = t;
    /* h not in hs */
    v.h = 10;
    CHECK_ERR(czk_snap_vanilla_check(&v), CZK_ERR_INVALID_ARG, "h = 10 is not one of");
    v.h = v.shape.h;
    CHECK_OK(czk_snap_vanilla_check(&v));
    czk_snap_vanilla_free(&v);
    free(d);
}

/* ---- generated updates ---------------------------------------------------------------- */

/* Written and read back byte for byte, checked natively; sizes of every
 * production shape up to 512MiB (32GiB and 64GiB outside ASan). */
CZK_TEST(snap_vanilla_generated_round_trip)
{
    static const uint64_t sizes[] = {2048, 8ULL << 20, 512ULL << 20, 32ULL << 30, 64ULL << 30};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        if (asan() && sizes[i] > (8ULL << 20)) continue;
        czk_snap_shape s;
        REQUIRE_OK(czk_snap_shape_of(&s, sizes[i]));
        czk_snap_vanilla v, r;
        double t0 = czk_now();
        REQUIRE_OK(czk_snap_gen(&v, &s, 5 + i));
        double t1 = czk_now();
        CHECK_OK(czk_snap_vanilla_check(&v));
        const size_t one = czk_snap_partition_proof_bytes(&s);
        uint8_t *b = malloc(one * s.partitions), *b2 = malloc(one);
        const uint8_t **ptr = malloc(s.partitions * sizeof *ptr);
        size_t *len = malloc(s.partitions * sizeof *len);
        REQUIRE(b && b2 && ptr && len);
        for (uint32_t k = 0; k < s.partitions; k++) {
            REQUIRE_OK(czk_snap_partition_encode(b + k * one, one, &len[k], &v.parts[k], &s));
            ptr[k] = b + k * one;
        }
        uint8_t cro[32], cdn[32], crn[32];
        czk_fr_to_bytes(cro, &v.comm_r_old);
        czk_fr_to_bytes(cdn, &v.comm_d_new);
        czk_fr_to_bytes(crn, &v.comm_r_new);
        REQUIRE_OK(czk_snap_vanilla_read(&r, &s, ptr, len, s.partitions, cro, cdn, crn));
        CHECK_OK(czk_snap_vanilla_check(&r));
        for (uint32_t k = 0; k < s.partitions; k++) {
            size_t l2;
            REQUIRE_OK(czk_snap_partition_encode(b2, one, &l2, &r.parts[k], &s));
            CHECK(l2 == one && memcmp(b2, b + k * one, one) == 0);
        }
        printf("  %s: generated in %.2f s, %u partition proofs of %zu bytes read back\n",
               czk_snap_proof_name(s.update_proof), t1 - t0, s.partitions, one);
        czk_snap_vanilla_free(&r);
        czk_snap_vanilla_free(&v);
        free(b);
        free(b2);
        free(ptr);
        free(len);
    }
}

/* ---- snap.json ------------------------------------------------------------------------- */

static czk_status json_text(czk_snap_json *m, const char *text)
{
    char path[4096];
    const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    snprintf(path, sizeof path, "%s/snap-test-%d.json", tmp, (int)getpid());
    FILE *f = fopen(path, "w");
    if (!f) return CZK_ERR_IO;
    fputs(text, f);
    fclose(f);
    czk_status st = czk_snap_json_read(m, path);
    remove(path);
    return st;
}

CZK_TEST(snap_json_read)
{
    czk_snap_json m, m2;
    REQUIRE(real_json(&m));
    char *txt = NULL;
    REQUIRE_OK(czk_snap_json_dump(&txt, &m));
    REQUIRE_OK(json_text(&m2, txt));
    CHECK(!strcmp(m2.proof, m.proof) && !memcmp(m2.comm_r_old, m.comm_r_old, 32) &&
          !memcmp(m2.comm_d_new, m.comm_d_new, 32) && !memcmp(m2.comm_r_new, m.comm_r_new, 32));
    free(txt);
    CHECK_ERR(json_text(&m2, "[]"), CZK_ERR_FORMAT, "the top level is not an object");
    CHECK_ERR(json_text(&m2, "{\"registered_update_proof\": \"StackedDrg2KiBV1\"}"), CZK_ERR_FORMAT,
              "missing key \"comm_r_old\"");
    char buf[2048];
    char z32[200] = "[";
    for (int i = 0; i < 32; i++) strcat(z32, i ? ",0" : "0");
    strcat(z32, "]");
    snprintf(buf, sizeof buf,
             "{\"registered_update_proof\": \"StackedDrg4KiBV1\", \"comm_r_old\": %s, \"comm_r_new\": %s, "
             "\"comm_d_new\": %s, \"partitions\": 1}",
             z32, z32, z32);
    CHECK_ERR(json_text(&m2, buf), CZK_ERR_FORMAT, "registered_update_proof");
    snprintf(buf, sizeof buf,
             "{\"registered_update_proof\": \"StackedDrg8MiBV1\", \"comm_r_old\": %s, \"comm_r_new\": %s, "
             "\"comm_d_new\": %s, \"partitions\": 1}",
             z32, z32, z32);
    CHECK_ERR(json_text(&m2, buf), CZK_ERR_FORMAT, "partitions: not 4");
    snprintf(buf, sizeof buf,
             "{\"registered_update_proof\": \"StackedDrg2KiBV1\", \"comm_r_old\": %s, \"comm_r_new\": [1,2], "
             "\"comm_d_new\": %s, \"partitions\": 1}",
             z32, z32);
    CHECK_ERR(json_text(&m2, buf), CZK_ERR_FORMAT, "comm_r_new: not an array of 32 numbers");
    snprintf(buf, sizeof buf,
             "{\"registered_update_proof\": \"StackedDrg2KiBV1\", \"comm_r_old\": %s, \"comm_r_new\": %s, "
             "\"comm_d_new\": [%s], \"partitions\": 1}",
             z32, z32, "255,255,255,255,255,255,255,255,255,255,255,255,255,255,255,255,"
                       "255,255,255,255,255,255,255,255,255,255,255,255,255,255,255,255");
    CHECK_ERR(json_text(&m2, buf), CZK_ERR_NOT_CANONICAL, "comm_d_new: not a field element");
    CHECK_ERR(json_text(&m2, "{"), CZK_ERR_FORMAT, "line 1");
}

/* A test shape with fewer challenges per partition (czk gen-snap
 * --challenges): snap.json names the size's update proof and records the
 * count; the directory reads back with that many proofs, checked; counts
 * outside 1 .. the size's are refused, and other custom shapes have no
 * snap.json. */
CZK_TEST(snap_test_shape_challenges)
{
    czk_snap_shape s, s8;
    REQUIRE_OK(czk_snap_shape_of(&s8, 8ULL << 20));
    CHECK(czk_snap_shape_challenges(&s8, 0) == CZK_ERR_INVALID_ARG);
    CHECK_ERR(czk_snap_shape_challenges(&s8, 11), CZK_ERR_INVALID_ARG, "1 .. 10");
    REQUIRE_OK(czk_snap_shape_challenges(&s8, 10)); /* the size's own count: still the registered proof */
    CHECK_EQ_U64(s8.update_proof, 1);
    REQUIRE_OK(czk_snap_shape_of(&s, 2048));
    REQUIRE_OK(czk_snap_shape_challenges(&s, 3));
    CHECK(s.update_proof == CZK_SNAP_PROOF_CUSTOM);
    CHECK_EQ_U64(s.challenges, 3);
    czk_snap_vanilla v, r;
    REQUIRE_OK(czk_snap_gen(&v, &s, 5));
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/snap-test-shape", czk_test_tmpdir());
    uint64_t bytes;
    REQUIRE_OK(czk_snap_dir_write(dir, &v, &bytes));
    czk_snap_json m;
    REQUIRE_OK(czk_snap_dir_read(&r, &m, dir));
    CHECK(strcmp(m.proof, "StackedDrg2KiBV1") == 0);
    CHECK_EQ_U64(m.shape.challenges, 3);
    CHECK(m.shape.update_proof == CZK_SNAP_PROOF_CUSTOM);
    CHECK_EQ_U64(r.shape.challenges, 3);
    char *txt = NULL;
    REQUIRE_OK(czk_snap_json_dump(&txt, &m));
    CHECK(strstr(txt, "\"challenges\": 3") != NULL);
    free(txt);
    czk_snap_vanilla_free(&r);
    /* the count is checked against the size's */
    char buf[2048], z32[200] = "[";
    for (int i = 0; i < 32; i++) strcat(z32, i ? ",0" : "0");
    strcat(z32, "]");
    static const char *const bad[] = {"0", "11", "\"3\""};
    for (int i = 0; i < 3; i++) {
        snprintf(buf, sizeof buf,
                 "{\"registered_update_proof\": \"StackedDrg2KiBV1\", \"comm_r_old\": %s, \"comm_r_new\": %s, "
                 "\"comm_d_new\": %s, \"partitions\": 1, \"challenges\": %s}",
                 z32, z32, z32, bad[i]);
        CHECK_ERR(json_text(&m, buf), CZK_ERR_FORMAT, "challenges: not an integer 1 .. 10");
    }
    /* another custom shape has no registered update proof */
    czk_snap_vanilla_free(&v);
    REQUIRE_OK(czk_snap_shape_custom(&s, 64, 8, 0, 0));
    REQUIRE_OK(czk_snap_gen(&v, &s, 5));
    CHECK_ERR(czk_snap_json_of(&m, &v), CZK_ERR_INVALID_ARG, "no registered update proof");
    czk_snap_vanilla_free(&v);
}
