/* Vanilla PoSt proofs (bincode FallbackPoStSectorProof): real WindowPoSt and
 * WinningPoSt proofs from filecoin-proofs (tests/filecoin/vectors) read,
 * checked against their challenges and written back byte for byte; every
 * kind of malformed input named; sizes of synthetic 32GiB (Sub) and 64GiB
 * (Top) proofs; the challenge and sector-choice derivations. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runner.h"

#include "czk/czk.h"
#include "czk/poseidon.h"
#include "czk/post_vanilla.h"

/* A PoSt shape built by hand (czk_post_shape_of lives in the circuit's
 * post.c): the V1_1 seal tree of the size and the counts. */
static czk_post_shape post_shape(czk_post_kind kind, uint64_t sector_size, uint32_t sectors, uint32_t challenges,
                                 uint32_t sector_challenges)
{
    czk_post_shape s;
    memset(&s, 0, sizeof s);
    czk_status st = czk_fc_shape_of_size(&s.tree, sector_size);
    CZK_ASSERT(st == CZK_OK);
    (void)st;
    s.kind = kind;
    s.api = CZK_POST_API_V1_2;
    s.sectors = sectors;
    s.challenges = challenges;
    s.sector_challenges = sector_challenges;
    return s;
}

static czk_post_shape window_shape(uint64_t size)
{
    return post_shape(CZK_POST_WINDOW, size, size >= (1ULL << 35) ? (size == (1ULL << 35) ? 2349 : 2300) : 2, 10, 10);
}

static czk_post_shape winning_shape(uint64_t size) { return post_shape(CZK_POST_WINNING, size, 66, 1, 66); }

/* The committed vectors (tests/filecoin/vectors/README.md). */
static const char *vectors(void)
{
    static char dir[4096];
    snprintf(dir, sizeof dir, "%s/tests/filecoin/vectors", CZK_SOURCE_DIR);
    return dir;
}

static uint8_t *slurp_in(const char *dir, const char *name, size_t *len)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", dir, name);
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

/* The first sector of post-KIND.json (czk_post_json_read), by value. */
typedef struct meta {
    char proof[48];
    czk_post_shape shape;
    uint8_t randomness[32], prover_id[32], comm_r[32];
    uint64_t sector_id;
    size_t n_challenges;
    uint64_t challenges[128];
} meta;

static uint8_t *slurp(const char *name, size_t *len) { return slurp_in(vectors(), name, len); }

static int read_meta_in(meta *m, const char *dir, const char *name)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    czk_post_json j;
    if (czk_post_json_read(&j, path) != CZK_OK) return 0;
    int ok = j.n_challenges <= 128;
    memcpy(m->proof, j.proof, sizeof m->proof);
    m->shape = j.shape;
    memcpy(m->randomness, j.randomness, 32);
    memcpy(m->prover_id, j.prover_id, 32);
    memcpy(m->comm_r, j.comm_r[0], 32);
    m->sector_id = j.sector_ids[0];
    m->n_challenges = j.n_challenges;
    for (size_t i = 0; ok && i < m->n_challenges; i++) m->challenges[i] = j.challenges[i];
    czk_post_json_free(&j);
    return ok;
}

static int read_meta(meta *m, const char *name) { return read_meta_in(m, vectors(), name); }

/* Read one sector proof with shape s; the status. */
static czk_status read1(czk_post_vanilla *v, const czk_post_shape *s, const uint8_t *d, size_t n, const meta *m)
{
    const uint8_t *p[1] = {d};
    size_t l[1] = {n};
    return czk_post_vanilla_read(v, s, p, l, 1, m->randomness, m->prover_id, 0);
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

CZK_TEST(post_vanilla_sizes)
{
    struct { uint64_t size; size_t merkle, window, winning; } t[] = {
        {1ULL << 11, 556, 5680, 36816},
        {1ULL << 23, 4 + 64 + 8 + 6 * 240, 0, 0},
        {1ULL << 29, 4 + 64 + 8 + 8 * 240, 0, 0},
        {1ULL << 35, 2484, 24960, 164064},
        {1ULL << 36, 2540, 25520, 167760},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        czk_fc_shape s;
        REQUIRE_OK(czk_fc_shape_of_size(&s, t[i].size));
        CHECK_EQ_U64(czk_post_merkle_proof_bytes(&s), t[i].merkle);
        /* 8 + 32 + 8 + 8 + n * merkle + 32 + 32 (docs/formats.md "Sizes") */
        CHECK_EQ_U64(czk_post_sector_proof_bytes(&s, 10), 120 + 10 * t[i].merkle);
        CHECK_EQ_U64(czk_post_sector_proof_bytes(&s, 66), 120 + 66 * t[i].merkle);
        /* Top: variant, root, leaf, base (8 + 9 * 240), sub (8 + 240), top (8 + 8 + 32 + 8) */
        if (t[i].size == 1ULL << 36) CHECK_EQ_U64(t[i].merkle, 4 + 64 + 8 + 9 * 240 + 8 + 240 + 8 + 48);
        if (t[i].window) CHECK_EQ_U64(czk_post_sector_proof_bytes(&s, 10), t[i].window);
        if (t[i].winning) CHECK_EQ_U64(czk_post_sector_proof_bytes(&s, 66), t[i].winning);
        CHECK_EQ_U64(czk_post_sector_proof_storage_size(&s, 10),
                     10 * (sizeof(czk_fc_merkle) + czk_fc_shape_tree_siblings(&s) * sizeof(czk_fr)));
    }
}

/* One real proof in dir (vanilla-KIND.bin, post-KIND.json): read,
 * challenges against the oracle's, check, write back, and failures. */
static void real_proof(const char *dir, const char *kind, czk_post_shape s, size_t want_len)
{
    meta m;
    size_t n;
    char bin[64], json[64], who[96], want[160];
    snprintf(bin, sizeof bin, "vanilla-%s.bin", kind);
    snprintf(json, sizeof json, "post-%s.json", kind);
    REQUIRE(read_meta_in(&m, dir, json));
    uint8_t *d = slurp_in(dir, bin, &n);
    REQUIRE(d != NULL);
    CHECK_EQ_U64(n, want_len);
    CHECK_EQ_U64(m.n_challenges, s.sector_challenges);
    snprintf(who, sizeof who, "sector proof 0 (sector %llu): ", (unsigned long long)m.sector_id);
    czk_post_vanilla v;
    czk_status st = read1(&v, &s, d, n, &m);
    CHECK_OK(st);
    if (st != CZK_OK) {
        free(d);
        return;
    }
    CHECK_EQ_U64(v.n, 1);
    const czk_post_sector_proof *p = &v.proofs[0];
    CHECK_EQ_U64(p->sector_id, m.sector_id);
    uint8_t b[32];
    czk_fr_to_bytes(b, &p->comm_r);
    CHECK_MEM(b, m.comm_r, 32);
    CHECK_EQ_U64(p->n_inclusion, s.sector_challenges);
    for (uint32_t k = 0; k < p->n_inclusion; k++) {
        CHECK_EQ_U64(p->inclusion[k].index, m.challenges[k]);
        CHECK_EQ_U64(czk_post_vanilla_challenge(&v, 0, k), m.challenges[k]);
        CHECK(czk_fr_eq(&p->inclusion[k].root, &p->comm_r_last));
    }
    CHECK_OK(czk_post_vanilla_check(&v));

    /* The writer gives the bytes back. */
    uint8_t *w = malloc(n + 16);
    size_t wl = 0;
    CHECK_OK(czk_post_sector_proof_encode(w, n + 16, &wl, p, &s.tree));
    CHECK_EQ_U64(wl, n);
    CHECK_MEM(w, d, n);
    CHECK(czk_post_sector_proof_encode(w, n - 1, &wl, p, &s.tree) == CZK_ERR_INVALID_ARG);
    free(w);

    /* V1_1 agrees for the first sector of partition 0, not for a later one. */
    v.shape.api = CZK_POST_API_V1_1;
    CHECK_OK(czk_post_vanilla_check(&v));
    v.partition = 1;
    uint32_t moved = 0; /* the first challenge whose leaf V1_1 moves */
    while (moved < s.sector_challenges && czk_post_vanilla_challenge(&v, 0, moved) == m.challenges[moved]) moved++;
    REQUIRE(moved < s.sector_challenges);
    snprintf(want, sizeof want, "%schallenge %u:", who, moved);
    CHECK_ERR(czk_post_vanilla_check(&v), CZK_ERR_VERIFY, want);
    v.shape.api = CZK_POST_API_V1_2;
    CHECK_OK(czk_post_vanilla_check(&v));

    /* Another randomness: the first challenge whose leaf changes is named. */
    meta m2 = m;
    m2.randomness[0] ^= 1;
    czk_post_vanilla v2;
    REQUIRE_OK(read1(&v2, &s, d, n, &m2));
    uint32_t first = 0;
    while (first < s.sector_challenges &&
           czk_post_leaf_challenge(m2.randomness, m.sector_id, first, s.tree.nodes) == m.challenges[first])
        first++;
    REQUIRE(first < s.sector_challenges);
    snprintf(want, sizeof want, "%schallenge %u: proves leaf %llu, the challenge is leaf %llu", who, first,
             (unsigned long long)m.challenges[first],
             (unsigned long long)czk_post_leaf_challenge(m2.randomness, m.sector_id, first, s.tree.nodes));
    CHECK_ERR(czk_post_vanilla_check(&v2), CZK_ERR_VERIFY, want);
    czk_post_vanilla_free(&v2);

    /* Another sector id in the proof: challenges differ. */
    set_u64(d, m.sector_id + 1);
    REQUIRE_OK(read1(&v2, &s, d, n, &m));
    snprintf(want, sizeof want, "sector proof 0 (sector %llu): challenge ", (unsigned long long)m.sector_id + 1);
    CHECK_ERR(czk_post_vanilla_check(&v2), CZK_ERR_VERIFY, want);
    czk_post_vanilla_free(&v2);
    set_u64(d, m.sector_id);

    /* A comm_r that is not Poseidon2(comm_c, comm_r_last). */
    czk_fr one;
    czk_fr_from_u64(&one, 1);
    czk_fr_add(&v.proofs[0].comm_r, &v.proofs[0].comm_r, &one);
    CHECK_ERR(czk_post_vanilla_check(&v), CZK_ERR_VERIFY, "comm_r != Poseidon2(comm_c, comm_r_last)");
    czk_fr_sub(&v.proofs[0].comm_r, &v.proofs[0].comm_r, &one);
    /* A sibling changed: the path no longer hashes to comm_r_last. */
    czk_fr_add(&v.proofs[0].inclusion[4].siblings[3], &v.proofs[0].inclusion[4].siblings[3], &one);
    snprintf(want, sizeof want, "%schallenge 4 (leaf %llu): path does not hash to comm_r_last", who,
             (unsigned long long)m.challenges[4]);
    CHECK_ERR(czk_post_vanilla_check(&v), CZK_ERR_VERIFY, want);
    czk_fr_sub(&v.proofs[0].inclusion[4].siblings[3], &v.proofs[0].inclusion[4].siblings[3], &one);
    /* One inclusion proof's root differs from the comm_r_last field. */
    czk_fr_add(&v.proofs[0].inclusion[2].root, &v.proofs[0].inclusion[2].root, &one);
    snprintf(want, sizeof want, "%schallenge 2 (leaf %llu): root differs from comm_r_last", who,
             (unsigned long long)m.challenges[2]);
    CHECK_ERR(czk_post_vanilla_check(&v), CZK_ERR_VERIFY, want);
    czk_fr_sub(&v.proofs[0].inclusion[2].root, &v.proofs[0].inclusion[2].root, &one);
    /* The comm_r_last field changed (the circuit allocates it). */
    czk_fr_add(&v.proofs[0].comm_r_last, &v.proofs[0].comm_r_last, &one);
    CHECK_ERR(czk_post_vanilla_check(&v), CZK_ERR_VERIFY, "comm_r != Poseidon2(comm_c, comm_r_last)");
    czk_fr_sub(&v.proofs[0].comm_r_last, &v.proofs[0].comm_r_last, &one);
    CHECK_OK(czk_post_vanilla_check(&v));
    czk_post_vanilla_free(&v);
    CHECK(v.arena == NULL && v.proofs == NULL);
    free(d);
}

CZK_TEST(post_vanilla_real_window)
{
    meta m;
    REQUIRE(read_meta(&m, "post-window.json"));
    CHECK(!strcmp(m.proof, "StackedDrgWindow2KiBV1_2"));
    /* the oracle's challenges, and czk's derivation of them */
    static const uint64_t want[10] = {13, 6, 18, 7, 29, 62, 62, 12, 26, 43};
    for (uint32_t k = 0; k < 10; k++) {
        CHECK_EQ_U64(m.challenges[k], want[k]);
        uint64_t ci = czk_post_challenge_index(CZK_POST_API_V1_2, 5, 10, k);
        CHECK_EQ_U64(czk_post_leaf_challenge(m.randomness, m.sector_id, ci, 64), want[k]);
    }
    CHECK_EQ_U64(m.sector_id, 264602);
    real_proof(vectors(), "window", window_shape(2048), 5680);
}

/* Registered proof types to shapes; post-KIND.json's errors name the file
 * and the key. */
CZK_TEST(post_json_read)
{
    czk_post_shape s;
    REQUIRE_OK(czk_post_proof_shape(&s, "StackedDrgWindow2KiBV1_2"));
    CHECK(s.kind == CZK_POST_WINDOW && s.api == CZK_POST_API_V1_2);
    CHECK_EQ_U64(s.tree.sector_size, 2048);
    CHECK_EQ_U64(s.sectors, 2);
    CHECK_EQ_U64(s.sector_challenges, 10);
    REQUIRE_OK(czk_post_proof_shape(&s, "StackedDrgWindow32GiBV1"));
    CHECK(s.api == CZK_POST_API_V1_1);
    CHECK_EQ_U64(s.sectors, 2349);
    REQUIRE_OK(czk_post_proof_shape(&s, "StackedDrgWindow64GiBV1_2"));
    CHECK(s.api == CZK_POST_API_V1_2);
    CHECK_EQ_U64(s.sectors, 2300);
    /* no such registered proofs */
    CHECK_ERR(czk_post_proof_shape(&s, "StackedDrgWindow64GiBV1_1"), CZK_ERR_INVALID_ARG, "(version 'V1_1')");
    CHECK_ERR(czk_post_proof_shape(&s, "StackedDrgWinning2KiBV1_2"), CZK_ERR_INVALID_ARG, "(version 'V1_2')");
    REQUIRE_OK(czk_post_proof_shape(&s, "StackedDrgWinning2KiBV1"));
    CHECK(s.kind == CZK_POST_WINNING);
    CHECK_EQ_U64(s.sectors, 66);
    CHECK_EQ_U64(s.sector_challenges, 66);
    CHECK_ERR(czk_post_proof_shape(&s, "StackedDrgWindow4KiBV1_2"), CZK_ERR_INVALID_ARG, "(sector size)");
    CHECK_ERR(czk_post_proof_shape(&s, "StackedDrgWindow2KiBV2"), CZK_ERR_INVALID_ARG, "(version 'V2')");
    CHECK_ERR(czk_post_proof_shape(&s, "StackedDrg2KiBV1"), CZK_ERR_INVALID_ARG, "unknown PoSt proof type");

    czk_post_json j;
    char path[4200];
    snprintf(path, sizeof path, "%s/post-window.json", vectors());
    REQUIRE_OK(czk_post_json_read(&j, path));
    CHECK_EQ_U64(j.n_sectors, 1);
    CHECK_EQ_U64(j.sector_ids[0], 264602);
    CHECK_EQ_U64(j.comm_r[0][0], 199);
    CHECK_EQ_U64(j.comm_r[0][31], 13);
    CHECK_EQ_U64(j.prover_id[0], 239);
    CHECK_EQ_U64(j.randomness[0], 101);
    CHECK_EQ_U64(j.n_challenges, 10);
    CHECK_EQ_U64(j.challenges[9], 43);
    czk_post_json_free(&j);
    CHECK(j.sector_ids == NULL);

    static const struct { const char *text, *want; } bad[] = {
        {"[]", "the top level is not an object"},
        {"{\"randomness\": 1", "line 1"},
        {"{}", "missing key \"registered_post_proof\""},
        {"{\"registered_post_proof\": \"StackedDrgWindow2KiBV9\", \"randomness\": [], \"prover_id\": [],"
         " \"sector_ids\": [], \"comm_r\": [], \"challenges\": []}", "registered_post_proof: unknown PoSt proof type"},
        {"{\"registered_post_proof\": \"StackedDrgWindow2KiBV1_2\", \"randomness\": [1], \"prover_id\": [],"
         " \"sector_ids\": [], \"comm_r\": [], \"challenges\": []}", "randomness: not an array of 32 numbers"},
    };
    snprintf(path, sizeof path, "%s/czk-post-json-%d.json", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (int)getpid());
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        FILE *f = fopen(path, "wb");
        REQUIRE(f != NULL);
        fputs(bad[i].text, f);
        fclose(f);
        CHECK_ERR(czk_post_json_read(&j, path), CZK_ERR_FORMAT, bad[i].want);
        CHECK(j.sector_ids == NULL && j.challenges == NULL);
    }
    remove(path);
    CHECK_ERR(czk_post_json_read(&j, path), CZK_ERR_IO, "cannot open");
}

CZK_TEST(post_vanilla_real_winning)
{
    meta m;
    REQUIRE(read_meta(&m, "post-winning.json"));
    CHECK(!strcmp(m.proof, "StackedDrgWinning2KiBV1"));
    CHECK_EQ_U64(m.challenges[10], 45);
    CHECK_EQ_U64(m.challenges[11], 57);
    /* The oracle's sector was chosen from a set of one. */
    uint64_t pick[5];
    REQUIRE_OK(czk_post_winning_sectors(pick, 1, m.randomness, m.prover_id, 1));
    CHECK_EQ_U64(pick[0], 0);
    /* Larger sets: values from Python's hashlib of the same formula. */
    REQUIRE_OK(czk_post_winning_sectors(pick, 5, m.randomness, m.prover_id, 1000));
    static const uint64_t w1000[5] = {793, 55, 583, 845, 530};
    for (int k = 0; k < 5; k++) CHECK_EQ_U64(pick[k], w1000[k]);
    REQUIRE_OK(czk_post_winning_sectors(pick, 2, m.randomness, m.prover_id, UINT64_MAX));
    CHECK_EQ_U64(pick[0], 9495338020684819793ULL % UINT64_MAX);
    CHECK_EQ_U64(pick[1], 9736083619956767055ULL);
    CHECK_ERR(czk_post_winning_sectors(pick, 1, m.randomness, m.prover_id, 0), CZK_ERR_INVALID_ARG, "empty sector set");
    uint8_t big[32];
    memset(big, 0xff, 32);
    CHECK_ERR(czk_post_winning_sectors(pick, 1, big, m.prover_id, 10), CZK_ERR_NOT_CANONICAL,
              "randomness is not a field element");
    CHECK_ERR(czk_post_winning_sectors(pick, 1, m.randomness, big, 10), CZK_ERR_NOT_CANONICAL,
              "prover_id is not a field element");
    CHECK_EQ_U64(m.sector_id, 264602);
    real_proof(vectors(), "winning", winning_shape(2048), 36816);
}

CZK_TEST(post_vanilla_challenge_index)
{
    CHECK_EQ_U64(czk_post_challenge_index(CZK_POST_API_V1_2, 7, 10, 3), 3);
    CHECK_EQ_U64(czk_post_challenge_index(CZK_POST_API_V1_1, 7, 10, 3), 73);
    CHECK_EQ_U64(czk_post_challenge_index(CZK_POST_API_V1_1, 0, 66, 65), 65);
    meta m;
    REQUIRE(read_meta(&m, "post-window.json"));
    /* V1_1, sector index 3 (partition 1 of 2 sectors, position 1): hashlib values */
    static const uint64_t v11[10] = {7, 57, 13, 16, 40, 20, 21, 57, 45, 16};
    for (uint32_t k = 0; k < 10; k++) {
        uint64_t ci = czk_post_challenge_index(CZK_POST_API_V1_1, 3, 10, k);
        CHECK_EQ_U64(czk_post_leaf_challenge(m.randomness, m.sector_id, ci, 64), v11[k]);
    }
}

/* How many prefixes d[0..k) (k < n, every step-th) are not refused with
 * CZK_ERR_FORMAT naming the missing bytes; each from an exact-size copy. */
static size_t prefixes_accepted(const uint8_t *d, size_t n, const czk_post_shape *s, const meta *m, size_t step)
{
    size_t bad = 0;
    for (size_t k = 0; k < n; k += step) {
        uint8_t *c = malloc(k ? k : 1);
        memcpy(c, d, k);
        czk_post_vanilla v;
        czk_status st = read1(&v, s, c, k, m);
        if (st != CZK_ERR_FORMAT || !has("more needed") || v.arena) bad++;
        if (st == CZK_OK) czk_post_vanilla_free(&v);
        free(c);
    }
    return bad;
}

/* Malformed encodings of the real proofs: each error names the field and
 * its byte offset; never a crash. */
/* The real 2KiB WindowPoSt sector proof, its metadata and a scratch copy
 * one byte longer (the malformed-input tests below). */
static uint8_t *window_fixture(meta *m, size_t *n, uint8_t **scratch)
{
    if (!read_meta(m, "post-window.json")) return NULL;
    uint8_t *d = slurp("vanilla-window.bin", n);
    if (!d || *n != 5680 || !(*scratch = malloc(*n + 1))) {
        free(d);
        return NULL;
    }
    return d;
}

/* Truncations and broken structure: counts, variants, path lengths, indices. */
CZK_TEST(post_vanilla_malformed)
{
    meta m;
    size_t n;
    uint8_t *b = NULL, *d = window_fixture(&m, &n, &b);
    REQUIRE(d != NULL);
    czk_post_shape s = window_shape(2048);
    czk_post_vanilla v;

    /* every strict prefix, of both real proofs */
    CHECK_EQ_U64(prefixes_accepted(d, n, &s, &m, 1), 0);
    size_t wn = 0;
    uint8_t *wd = slurp("vanilla-winning.bin", &wn);
    REQUIRE(wd != NULL && wn == 36816);
    czk_post_shape sw = winning_shape(2048);
    CHECK_EQ_U64(prefixes_accepted(wd, wn, &sw, &m, getenv("CZK_TEST_ASAN") ? 5 : 1), 0);
    free(wd);
    CHECK_ERR(read1(&v, &s, d, 0, &m), CZK_ERR_FORMAT,
              "sector proof 0: sector_id: input ends after 0 bytes, 8 more needed (byte offset 0)");
    CHECK_ERR(read1(&v, &s, d, 100, &m), CZK_ERR_FORMAT,
              "sector proof 0 (sector 264602): inclusion proof 0, leaf: "
              "input ends after 100 bytes, 24 more needed (byte offset 92)");

    /* a trailing byte */
    memcpy(b, d, n);
    b[n] = 0;
    CHECK_ERR(read1(&v, &s, b, n + 1, &m), CZK_ERR_FORMAT, "end of the proof: 1 trailing bytes (byte offset 5680)");

    /* the Vec of sector proofs, the inclusion count */
    memcpy(b, d, n);
    set_u64(b + 40, 2);
    CHECK_ERR(read1(&v, &s, b, n, &m), CZK_ERR_FORMAT,
              "sector proof 0 (sector 264602): vanilla_proof.sectors: expected 1 elements, found 2 (byte offset 40)");
    memcpy(b, d, n);
    set_u64(b + 48, 11);
    CHECK_ERR(read1(&v, &s, b, n, &m), CZK_ERR_FORMAT,
              "sector proof 0 (sector 264602): inclusion_proofs: expected 10 elements, found 11 (byte offset 48)");
    czk_post_shape s9 = post_shape(CZK_POST_WINDOW, 2048, 2, 10, 9);
    CHECK_ERR(read1(&v, &s9, d, n, &m), CZK_ERR_FORMAT,
              "inclusion_proofs: expected 9 elements, found 10 (byte offset 48)");
    czk_post_shape s66 = winning_shape(2048);
    CHECK_ERR(read1(&v, &s66, d, n, &m), CZK_ERR_FORMAT,
              "inclusion_proofs: expected 66 elements, found 10 (byte offset 48)");

    /* wrong variant: inclusion proof 3 starts at 56 + 3 * 556 */
    size_t p3 = 56 + 3 * 556;
    memcpy(b, d, n);
    b[p3] = 1;
    CHECK_ERR(read1(&v, &s, b, n, &m), CZK_ERR_FORMAT,
              "inclusion proof 3, variant: expected 0 (Single, the tree's shape), found 1 (Sub) (byte offset 1724)");
    b[p3] = 7;
    CHECK_ERR(read1(&v, &s, b, n, &m), CZK_ERR_FORMAT, "found 7 (no such variant) (byte offset 1724)");
    b[p3] = 0, b[p3 + 3] = 0x80;
    CHECK_ERR(read1(&v, &s, b, n, &m), CZK_ERR_FORMAT, "found 2147483648");

    /* path length, hashes count, element index (Single: variant, root, leaf, path) */
    memcpy(b, d, n);
    set_u64(b + p3 + 68, 3);
    CHECK_ERR(read1(&v, &s, b, n, &m), CZK_ERR_FORMAT,
              "inclusion proof 3, path: expected 2 elements, found 3 (byte offset 1792)");
    set_u64(b + p3 + 68, 1ULL << 62);
    CHECK_ERR(read1(&v, &s, b, n, &m), CZK_ERR_FORMAT, "found 4611686018427387904");
    memcpy(b, d, n);
    set_u64(b + p3 + 76 + 240, 8);
    CHECK_ERR(read1(&v, &s, b, n, &m), CZK_ERR_FORMAT,
              "inclusion proof 3, path element 1, hashes: expected 7 elements, found 8 (byte offset 2040)");
    memcpy(b, d, n);
    set_u64(b + p3 + 76 + 8 + 224, 8);
    CHECK_ERR(read1(&v, &s, b, n, &m), CZK_ERR_FORMAT,
              "inclusion proof 3, path element 0, index: 8 out of range 0..7 "
              "(the level's arity is 8) (byte offset 2032)");
    /* an index in range but not the challenge's */
    uint64_t old = d[p3 + 76 + 8 + 224];
    set_u64(b + p3 + 76 + 8 + 224, (old + 1) % 8);
    REQUIRE_OK(read1(&v, &s, b, n, &m));
    CHECK_ERR(czk_post_vanilla_check(&v), CZK_ERR_VERIFY, "sector proof 0 (sector 264602): challenge 3: proves leaf");
    czk_post_vanilla_free(&v);

    free(b);
    free(d);
}

/* Values that are not field elements, and every single-bit flip. */
CZK_TEST(post_vanilla_malformed_values)
{
    meta m;
    size_t n;
    uint8_t *b = NULL, *d = window_fixture(&m, &n, &b);
    REQUIRE(d != NULL);
    czk_post_shape s = window_shape(2048);
    czk_post_vanilla v;
    const size_t p3 = 56 + 3 * 556; /* inclusion proof 3 */

    /* non-canonical values: r itself, all ones; r - 1 reads but fails the check */
    static const uint8_t R[32] = {0x01, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff, 0xfe, 0x5b, 0xfe,
                                  0xff, 0x02, 0xa4, 0xbd, 0x53, 0x05, 0xd8, 0xa1, 0x09, 0x08, 0xd8,
                                  0x39, 0x33, 0x48, 0x7d, 0x9d, 0x29, 0x53, 0xa7, 0xed, 0x73};
    memcpy(b, d, n);
    memcpy(b + 8, R, 32);
    CHECK_ERR(read1(&v, &s, b, n, &m), CZK_ERR_NOT_CANONICAL,
              "sector proof 0 (sector 264602): comm_r: 32-byte value is not a field element (>= r) (byte offset 8)");
    memcpy(b, d, n);
    memset(b + p3 + 76 + 8 + 2 * 32, 0xff, 32);
    CHECK_ERR(read1(&v, &s, b, n, &m), CZK_ERR_NOT_CANONICAL,
              "inclusion proof 3, path element 0, hashes[2]: 32-byte value is not a field element (>= r) "
              "(byte offset 1872)");
    memcpy(b, d, n);
    memcpy(b + n - 32, R, 32);
    CHECK_ERR(read1(&v, &s, b, n, &m), CZK_ERR_NOT_CANONICAL, "comm_r_last: 32-byte value");
    memcpy(b + n - 32, R, 32);
    b[n - 32] = 0; /* r - 1 */
    REQUIRE_OK(read1(&v, &s, b, n, &m));
    CHECK_ERR(czk_post_vanilla_check(&v), CZK_ERR_VERIFY, "comm_r != Poseidon2(comm_c, comm_r_last)");
    czk_post_vanilla_free(&v);

    /* randomness and prover_id must be field elements */
    meta m2 = m;
    memcpy(m2.randomness, R, 32);
    CHECK_ERR(read1(&v, &s, d, n, &m2), CZK_ERR_NOT_CANONICAL, "randomness is not a field element");
    m2 = m;
    memset(m2.prover_id, 0xff, 32);
    CHECK_ERR(read1(&v, &s, d, n, &m2), CZK_ERR_NOT_CANONICAL, "prover_id is not a field element");

    /* every byte with one bit flipped: an error, or a failed check */
    size_t step = getenv("CZK_TEST_ASAN") ? 7 : 1, accepted = 0, formats = 0, verifies = 0;
    for (size_t k = 0; k < n; k += step) {
        memcpy(b, d, n);
        b[k] ^= (uint8_t)(1u << (k % 8));
        czk_status st = read1(&v, &s, b, n, &m);
        if (st == CZK_OK) {
            st = czk_post_vanilla_check(&v);
            czk_post_vanilla_free(&v);
            if (st == CZK_ERR_VERIFY) verifies++;
            else accepted++;
        } else if (st == CZK_ERR_FORMAT || st == CZK_ERR_NOT_CANONICAL) {
            formats++;
        } else {
            accepted++;
        }
    }
    CHECK_EQ_U64(accepted, 0);
    CHECK(formats > 0 && verifies > 0);

    free(b);
    free(d);
}

/* Shapes outside the contract and sector counts that do not fit. */
CZK_TEST(post_vanilla_malformed_counts)
{
    meta m;
    size_t n;
    uint8_t *b = NULL, *d = window_fixture(&m, &n, &b);
    REQUIRE(d != NULL);
    czk_post_shape s = window_shape(2048);
    czk_post_vanilla v;
    const size_t p3 = 56 + 3 * 556; /* inclusion proof 3 */

    /* shapes outside the contract */
    czk_post_shape s0 = s;
    s0.sector_challenges = 0;
    CHECK_ERR(read1(&v, &s0, d, n, &m), CZK_ERR_INVALID_ARG, "shape out of range");
    s0 = s;
    s0.tree.nodes = 63;
    CHECK_ERR(read1(&v, &s0, d, n, &m), CZK_ERR_INVALID_ARG, "shape out of range");

    /* counts that do not fit the partition */
    const uint8_t *pp[3] = {d, d, d};
    size_t ll[3] = {n, n, n};
    CHECK_ERR(czk_post_vanilla_read(&v, &s, pp, ll, 3, m.randomness, m.prover_id, 0), CZK_ERR_INVALID_ARG,
              "3 sector proofs of 10 challenges do not fit a WindowPoSt partition of 2 sectors");
    CHECK_ERR(czk_post_vanilla_read(&v, &s, pp, ll, 0, m.randomness, m.prover_id, 0), CZK_ERR_INVALID_ARG,
              "0 sector proofs");
    /* two sectors, the second one broken: named by its position */
    memcpy(b, d, n);
    b[p3] = 2;
    pp[1] = b;
    CHECK_ERR(czk_post_vanilla_read(&v, &s, pp, ll, 2, m.randomness, m.prover_id, 0), CZK_ERR_FORMAT,
              "vanilla PoSt sector proof 1 (sector 264602): inclusion proof 3, variant");
    CHECK(v.arena == NULL);
    /* two good copies: the second sits at index 1 of the partition and its
     * V1_2 challenges are the same, so the check passes */
    pp[1] = d;
    REQUIRE_OK(czk_post_vanilla_read(&v, &s, pp, ll, 2, m.randomness, m.prover_id, 0));
    CHECK_EQ_U64(v.n, 2);
    CHECK_OK(czk_post_vanilla_check(&v));
    v.shape.api = CZK_POST_API_V1_1;
    CHECK_ERR(czk_post_vanilla_check(&v), CZK_ERR_VERIFY,
              "sector proof 1 (sector 264602): challenge 0: proves leaf 13, the challenge is leaf");
    czk_post_vanilla_free(&v);
    free(b);
    free(d);
}

/* A random proof of shape `tree` (indices < nodes, values uniform). */
typedef struct synth {
    czk_post_sector_proof p;
    void *storage;
} synth;

static void synth_make(synth *s, const czk_fc_shape *tree, uint32_t n_inclusion, czk_rng *rng)
{
    size_t sz = czk_post_sector_proof_storage_size(tree, n_inclusion), t = czk_fc_shape_tree_siblings(tree);
    s->storage = malloc(sz);
    czk_fc_merkle *inc = s->storage;
    czk_fr *pool = (czk_fr *)(inc + n_inclusion);
    s->p.sector_id = czk_rng_u64(rng);
    czk_fr_random(&s->p.comm_r, rng);
    czk_fr_random(&s->p.comm_c, rng);
    czk_fr_random(&s->p.comm_r_last, rng);
    s->p.n_inclusion = n_inclusion;
    s->p.inclusion = inc;
    for (uint32_t k = 0; k < n_inclusion; k++) {
        inc[k].index = czk_rng_below(rng, tree->nodes);
        inc[k].root = s->p.comm_r_last;
        czk_fr_random(&inc[k].leaf, rng);
        inc[k].siblings = pool + (size_t)k * t;
        for (size_t j = 0; j < t; j++) czk_fr_random(&inc[k].siblings[j], rng);
    }
    if (n_inclusion) inc[0].index = tree->nodes - 1;
}

static int merkle_eq(const czk_fc_merkle *a, const czk_fc_merkle *b, size_t t)
{
    if (a->index != b->index || !czk_fr_eq(&a->root, &b->root) || !czk_fr_eq(&a->leaf, &b->leaf)) return 0;
    for (size_t j = 0; j < t; j++)
        if (!czk_fr_eq(&a->siblings[j], &b->siblings[j])) return 0;
    return 1;
}

/* Synthetic 32GiB (Sub) and 64GiB (Top) proofs: the sizes of docs/formats.md,
 * decode(encode(x)) == x, encode(decode(bytes)) == bytes, shape errors. */
CZK_TEST(post_vanilla_synthetic_large)
{
    czk_rng *rng = czk_test_rng();
    struct { uint64_t size; uint32_t count; size_t bytes; uint32_t variant; } t[] = {
        {1ULL << 35, 10, 24960, 1},
        {1ULL << 35, 66, 164064, 1},
        {1ULL << 36, 10, 120 + 10 * 2540, 2},
        {1ULL << 23, 10, 120 + 10 * (76 + 6 * 240), 0},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        czk_fc_shape tree;
        REQUIRE_OK(czk_fc_shape_of_size(&tree, t[i].size));
        synth s;
        synth_make(&s, &tree, t[i].count, rng);
        REQUIRE(s.storage != NULL);
        size_t cap = t[i].bytes + 8, len = 0;
        uint8_t *b = malloc(cap), *b2 = malloc(cap);
        REQUIRE_OK(czk_post_sector_proof_encode(b, cap, &len, &s.p, &tree));
        CHECK_EQ_U64(len, t[i].bytes);
        CHECK_EQ_U64(len, czk_post_sector_proof_bytes(&tree, t[i].count));
        CHECK_EQ_U64(b[56], t[i].variant);
        size_t sz = czk_post_sector_proof_storage_size(&tree, t[i].count), ts = czk_fc_shape_tree_siblings(&tree);
        void *st = malloc(sz);
        czk_post_sector_proof q;
        REQUIRE_OK(czk_post_sector_proof_decode(&q, st, sz, b, len, &tree, t[i].count, 4));
        CHECK_EQ_U64(q.sector_id, s.p.sector_id);
        CHECK(czk_fr_eq(&q.comm_r, &s.p.comm_r) && czk_fr_eq(&q.comm_c, &s.p.comm_c) &&
              czk_fr_eq(&q.comm_r_last, &s.p.comm_r_last));
        CHECK_EQ_U64(q.n_inclusion, t[i].count);
        size_t diff = 0;
        for (uint32_t k = 0; k < t[i].count; k++) diff += !merkle_eq(&q.inclusion[k], &s.p.inclusion[k], ts);
        CHECK_EQ_U64(diff, 0);
        CHECK_EQ_U64(q.inclusion[0].index, tree.nodes - 1);
        size_t len2 = 0;
        REQUIRE_OK(czk_post_sector_proof_encode(b2, cap, &len2, &q, &tree));
        CHECK(len2 == len && !memcmp(b, b2, len));

        /* a storage too small, and an index beyond the tree */
        CHECK(czk_post_sector_proof_decode(&q, st, sz - 1, b, len, &tree, t[i].count, 0) == CZK_ERR_INVALID_ARG);
        s.p.inclusion[1].index = tree.nodes;
        CHECK_ERR(czk_post_sector_proof_encode(b2, cap, &len2, &s.p, &tree), CZK_ERR_INVALID_ARG,
                  "inclusion proof 1: index");

        /* The variant of another shape, and each compound path's length. */
        char want[160];
        memcpy(b2, b, len);
        b2[56] = (uint8_t)(t[i].variant ? 0 : 1);
        snprintf(want, sizeof want, "sector proof 4 (sector %llu): inclusion proof 0, variant: expected %u",
                 (unsigned long long)s.p.sector_id, t[i].variant);
        CHECK_ERR(czk_post_sector_proof_decode(&q, st, sz, b2, len, &tree, t[i].count, 4), CZK_ERR_FORMAT, want);
        if (t[i].variant) {
            /* base path length at 60; the sub path's at 60 + 8 + 9 * 240 */
            memcpy(b2, b, len);
            set_u64(b2 + 60, 10);
            CHECK_ERR(czk_post_sector_proof_decode(&q, st, sz, b2, len, &tree, t[i].count, 4), CZK_ERR_FORMAT,
                      "inclusion proof 0, base path: expected 9 elements, found 10 (byte offset 60)");
            memcpy(b2, b, len);
            set_u64(b2 + 60 + 8 + 9 * 240, 2);
            CHECK_ERR(czk_post_sector_proof_decode(&q, st, sz, b2, len, &tree, t[i].count, 4), CZK_ERR_FORMAT,
                      "inclusion proof 0, sub path: expected 1 elements, found 2 (byte offset 2228)");
            memcpy(b2, b, len);
            set_u64(b2 + 60 + 8 + 9 * 240 + 8, 6);
            CHECK_ERR(czk_post_sector_proof_decode(&q, st, sz, b2, len, &tree, t[i].count, 4), CZK_ERR_FORMAT,
                      "inclusion proof 0, sub path element 0, hashes: expected 7 elements, found 6");
        }
        if (t[i].variant == 2) {
            size_t top = 60 + 8 + 9 * 240 + 248;
            memcpy(b2, b, len);
            set_u64(b2 + top + 8, 0);
            CHECK_ERR(czk_post_sector_proof_decode(&q, st, sz, b2, len, &tree, t[i].count, 4), CZK_ERR_FORMAT,
                      "inclusion proof 0, top path element 0, hashes: expected 1 elements, found 0");
            memcpy(b2, b, len);
            set_u64(b2 + top + 8 + 8 + 32, 2);
            CHECK_ERR(czk_post_sector_proof_decode(&q, st, sz, b2, len, &tree, t[i].count, 4), CZK_ERR_FORMAT,
                      "inclusion proof 0, top path element 0, index: 2 out of range 0..1 (the level's arity is 2)");
        }
        free(st);
        free(b);
        free(b2);
        free(s.storage);
    }
}

/* A consistent one-challenge proof in the 32GiB and 64GiB trees: the
 * reader's mixed-radix index agrees with the native path hashing. */
CZK_TEST(post_vanilla_synthetic_check)
{
    czk_rng *rng = czk_test_rng();
    uint64_t sizes[2] = {1ULL << 35, 1ULL << 36};
    for (int i = 0; i < 2; i++) {
        czk_post_shape s = post_shape(CZK_POST_WINDOW, sizes[i], 1, 1, 1);
        uint8_t rnd[32], pid[32] = {0};
        czk_rng_bytes(rng, rnd, 32);
        rnd[31] &= 0x3f;
        synth sy;
        synth_make(&sy, &s.tree, 1, rng);
        czk_fc_merkle *m = &sy.p.inclusion[0];
        m->index = czk_post_leaf_challenge(rnd, sy.p.sector_id, 0, s.tree.nodes);
        REQUIRE_OK(czk_fc_merkle_root(&sy.p.comm_r_last, &s.tree, 0, m));
        m->root = sy.p.comm_r_last;
        czk_poseidon_hash2(&sy.p.comm_r, &sy.p.comm_c, &sy.p.comm_r_last);
        size_t len = 0, cap = czk_post_sector_proof_bytes(&s.tree, 1);
        uint8_t *b = malloc(cap);
        REQUIRE_OK(czk_post_sector_proof_encode(b, cap, &len, &sy.p, &s.tree));
        const uint8_t *pp[1] = {b};
        czk_post_vanilla v;
        REQUIRE_OK(czk_post_vanilla_read(&v, &s, pp, &len, 1, rnd, pid, 0));
        CHECK_EQ_U64(v.proofs[0].inclusion[0].index, m->index);
        CHECK_OK(czk_post_vanilla_check(&v));
        czk_post_vanilla_free(&v);
        /* the top-level element index changed: another leaf, same hashes */
        size_t last_index = len - 64 - 64 - 8; /* before root and leaf */
        b[last_index] ^= 1;
        REQUIRE_OK(czk_post_vanilla_read(&v, &s, pp, &len, 1, rnd, pid, 0));
        CHECK_EQ_U64(v.proofs[0].inclusion[0].index, m->index ^ (s.tree.nodes / (i ? 2 : 8)));
        CHECK_ERR(czk_post_vanilla_check(&v), CZK_ERR_VERIFY, "challenge 0: proves leaf");
        czk_post_vanilla_free(&v);
        free(b);
        free(sy.storage);
    }
}

/* The proofs of a fresh seal: tests/oracle/oracle.sh (porep 2KiB) runs this
 * test with CZK_POST_VANILLA_DIR set to czk-oracle vanilla-post's output.
 * Without it the test has nothing to read and passes. */
CZK_TEST(post_vanilla_oracle_dir)
{
    const char *dir = getenv("CZK_POST_VANILLA_DIR");
    if (!dir || !*dir) return;
    real_proof(dir, "window", window_shape(2048), 5680);
    real_proof(dir, "winning", winning_shape(2048), 36816);
}

/* A whole tree of shape s over random leaves: lv[0] = leaves, lv[l + 1] the
 * parents of lv[l]. Returns the number of levels + 1 filled, 0 on failure. */
static uint32_t tree_build(czk_fr **lv, const czk_fc_shape *s, czk_rng *rng)
{
    uint32_t levels = czk_fc_shape_tree_levels(s);
    uint64_t w = s->nodes;
    lv[0] = malloc(w * sizeof(czk_fr));
    if (!lv[0]) return 0;
    for (uint64_t i = 0; i < w; i++) czk_fr_random(&lv[0][i], rng);
    for (uint32_t l = 0; l < levels; l++) {
        uint32_t ar = czk_fc_shape_level_arity(s, l);
        w /= ar;
        lv[l + 1] = malloc(w * sizeof(czk_fr));
        if (!lv[l + 1]) return 0;
        for (uint64_t i = 0; i < w; i++)
            if (czk_poseidon_hash(&lv[l + 1][i], &lv[l][i * ar], ar) != CZK_OK) return 0;
    }
    return levels + 1;
}

/* The inclusion proof of leaf x in the tree lv (siblings into m->siblings). */
static void tree_proof(czk_fc_merkle *m, czk_fr *const *lv, const czk_fc_shape *s, uint64_t x)
{
    uint32_t levels = czk_fc_shape_tree_levels(s);
    m->index = x;
    m->leaf = lv[0][x];
    m->root = lv[levels][0];
    czk_fr *sib = m->siblings;
    for (uint32_t l = 0; l < levels; l++) {
        uint32_t ar = czk_fc_shape_level_arity(s, l);
        uint64_t base = x - x % ar;
        for (uint32_t j = 0; j < ar; j++)
            if (base + j != x) *sib++ = lv[l][base + j];
        x /= ar;
    }
}

/* Consistent proofs over whole random trees of every variant (Single 64
 * leaves, Sub 8 x 8, Top 8 x 8 x 2): two sector proofs of 10 challenges each,
 * at a random partition, under both challenge rules, written by czk, read
 * back and checked; the writer reproduces the bytes; the check fails under
 * the other rule where the rules differ. */
CZK_TEST(post_vanilla_random_trees)
{
    czk_rng *rng = czk_test_rng();
    struct { uint64_t nodes; uint32_t base, sub, top; } t[] = {{64, 8, 0, 0}, {64, 8, 8, 0}, {128, 8, 8, 2}};
    size_t rounds = czk_test_iters(4);
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        for (size_t round = 0; round < rounds; round++) {
            czk_post_shape s;
            memset(&s, 0, sizeof s);
            REQUIRE_OK(czk_fc_shape_custom(&s.tree, t[i].nodes, 2, 1, 1, t[i].base, t[i].sub, t[i].top));
            s.kind = CZK_POST_WINDOW;
            s.api = round % 2 ? CZK_POST_API_V1_1 : CZK_POST_API_V1_2;
            s.sectors = 2, s.challenges = 10, s.sector_challenges = 10;
            uint32_t partition = (uint32_t)czk_rng_below(rng, 4);
            uint8_t rnd[32], pid[32] = {0};
            czk_rng_bytes(rng, rnd, 32);
            rnd[31] &= 0x3f;
            czk_fr *lv[CZK_FC_MAX_LEVELS + 1] = {0};
            uint32_t nl = tree_build(lv, &s.tree, rng);
            REQUIRE(nl > 0);
            size_t cap = czk_post_sector_proof_bytes(&s.tree, 10);
            size_t sz = czk_post_sector_proof_storage_size(&s.tree, 10), ts = czk_fc_shape_tree_siblings(&s.tree);
            uint8_t *bytes[2];
            size_t lens[2];
            void *store[2];
            for (uint32_t p = 0; p < 2; p++) {
                czk_post_sector_proof sp;
                store[p] = malloc(sz);
                bytes[p] = malloc(cap);
                REQUIRE(store[p] && bytes[p]);
                sp.sector_id = czk_rng_u64(rng) >> (round % 4 * 16); /* small and large ids */
                sp.n_inclusion = 10;
                sp.inclusion = store[p];
                czk_fr_random(&sp.comm_c, rng);
                sp.comm_r_last = lv[nl - 1][0];
                czk_poseidon_hash2(&sp.comm_r, &sp.comm_c, &sp.comm_r_last);
                uint64_t sector_index = (uint64_t)partition * 2 + p;
                for (uint32_t k = 0; k < 10; k++) {
                    sp.inclusion[k].siblings = (czk_fr *)(sp.inclusion + 10) + (size_t)k * ts;
                    uint64_t ci = czk_post_challenge_index(s.api, sector_index, 10, k);
                    tree_proof(&sp.inclusion[k], lv, &s.tree,
                               czk_post_leaf_challenge(rnd, sp.sector_id, ci, s.tree.nodes));
                }
                REQUIRE_OK(czk_post_sector_proof_encode(bytes[p], cap, &lens[p], &sp, &s.tree));
                CHECK_EQ_U64(lens[p], cap);
            }
            czk_post_vanilla v;
            const uint8_t *pp[2] = {bytes[0], bytes[1]};
            REQUIRE_OK(czk_post_vanilla_read(&v, &s, pp, lens, 2, rnd, pid, partition));
            CHECK_OK(czk_post_vanilla_check(&v));
            uint8_t *again = malloc(cap);
            for (uint32_t p = 0; p < 2; p++) {
                size_t l = 0;
                CHECK_OK(czk_post_sector_proof_encode(again, cap, &l, &v.proofs[p], &s.tree));
                CHECK(l == lens[p] && !memcmp(again, bytes[p], l));
            }
            free(again);
            /* the other rule: the same for sector index 0 only */
            v.shape.api = s.api == CZK_POST_API_V1_1 ? CZK_POST_API_V1_2 : CZK_POST_API_V1_1;
            int same = 1;
            for (uint32_t p = 0; p < 2; p++)
                for (uint32_t k = 0; k < 10; k++)
                    same &= czk_post_vanilla_challenge(&v, p, k) == v.proofs[p].inclusion[k].index;
            CHECK(same == (czk_post_vanilla_check(&v) == CZK_OK));
            if (partition > 0) CHECK(!same);
            czk_post_vanilla_free(&v);
            for (uint32_t p = 0; p < 2; p++) free(store[p]), free(bytes[p]);
            for (uint32_t l = 0; l < nl; l++) free(lv[l]);
        }
    }
}
