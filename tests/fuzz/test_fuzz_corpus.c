/* The fuzz harnesses' entry points (fuzz/fuzz_targets.c) run in the normal
 * test build, without libFuzzer: every seed of every target is accepted,
 * then deterministic mutations of it (truncations, extensions, wrong magic,
 * bit flips, overwritten length fields, spliced chunks) run through the same
 * entry points, which abort on any broken invariant; ASan/UBSan builds catch
 * memory errors. Truncated and wrong-magic binary files must be rejected.
 * Finally the crash reproducers in fuzz/regressions/ are replayed. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* memfd_create */
#endif
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "runner.h"

#include "../../fuzz/fuzz_post_vanilla.c"
#include "../../fuzz/fuzz_snap_vanilla.c"
#include "../../fuzz/fuzz_seeds.c"
#include "../../fuzz/fuzz_targets.c"

typedef struct seedset {
    size_t n;
    uint8_t *d[16];
    size_t len[16];
} seedset;

static void collect(void *ctx, const uint8_t *d, size_t n)
{
    seedset *s = ctx;
    if (s->n == 16) return;
    s->d[s->n] = malloc(n ? n : 1);
    if (!s->d[s->n]) return;
    memcpy(s->d[s->n], d, n);
    s->len[s->n++] = n;
}
static void seedset_clear(seedset *s)
{
    for (size_t i = 0; i < s->n; i++) free(s->d[i]);
    s->n = 0;
}

/* Run one input from an exact-size heap copy (so over-reads hit ASan). */
static int run_one(const czk_fuzz_target *t, const uint8_t *d, size_t n)
{
    uint8_t *c = malloc(n ? n : 1);
    if (!c) return -1;
    memcpy(c, d, n);
    czk_fuzz_status = -1;
    t->fn(c, n);
    free(c);
    return czk_fuzz_status;
}

/* Formats whose every strict prefix is malformed, and those with a magic. */
static int truncation_fails(const char *name)
{
    static const char *const v[] = {"fc_c1", "groth16_params", "groth16_vk", "pce", "pce_resum", "circom_r1cs",
                                    "circom_wtns", "circom_zkey", "snarkjs_proof_json", "snarkjs_vk_json",
                                    "post_vanilla", "snap_vanilla"};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
        if (strcmp(v[i], name) == 0) return 1;
    return 0;
}
static int has_magic(const char *name)
{
    return strncmp(name, "pce", 3) == 0 || strncmp(name, "circom_", 7) == 0 ? strcmp(name, "circom_sym") != 0 : 0;
}

static const uint32_t INTERESTING[] = {0, 1, 2, 0x7f, 0x80, 0xff, 0xffff, 0x7fffffff, 0x80000000, 0xfffffffe, 0xffffffff};

/* One mutation of seed (n bytes) into out (capacity cap); returns its length. */
static size_t mutate(uint8_t *out, size_t cap, const uint8_t *seed, size_t n, const seedset *all, czk_rng *rng)
{
    size_t len = n < cap ? n : cap;
    memcpy(out, seed, len);
    unsigned kind = (unsigned)czk_rng_below(rng, 7);
    switch (kind) {
    case 0: /* truncate */
        return len ? (size_t)czk_rng_below(rng, len) : 0;
    case 1: { /* extend with random bytes */
        size_t extra = 1 + (size_t)czk_rng_below(rng, 64);
        if (len + extra > cap) extra = cap - len;
        czk_rng_bytes(rng, out + len, extra);
        return len + extra;
    }
    case 2: { /* flip 1..8 bits */
        unsigned k = 1 + (unsigned)czk_rng_below(rng, 8);
        for (unsigned i = 0; len && i < k; i++) {
            size_t at = (size_t)czk_rng_below(rng, len);
            out[at] ^= (uint8_t)(1u << czk_rng_below(rng, 8));
        }
        return len;
    }
    case 3: { /* overwrite an aligned 32-bit word with an interesting value */
        if (len < 4) return len;
        size_t at = (size_t)czk_rng_below(rng, len / 4) * 4;
        uint32_t v = INTERESTING[czk_rng_below(rng, sizeof INTERESTING / sizeof INTERESTING[0])];
        for (int i = 0; i < 4; i++) out[at + i] = (uint8_t)(v >> (8 * i));
        return len;
    }
    case 4: { /* set a run of bytes to 0x00 / 0xff / random */
        if (!len) return len;
        size_t at = (size_t)czk_rng_below(rng, len), run = 1 + (size_t)czk_rng_below(rng, 48);
        if (at + run > len) run = len - at;
        unsigned how = (unsigned)czk_rng_below(rng, 3);
        if (how == 2) czk_rng_bytes(rng, out + at, run);
        else memset(out + at, how ? 0xff : 0, run);
        return len;
    }
    case 5: { /* delete a chunk */
        if (len < 2) return len;
        size_t at = (size_t)czk_rng_below(rng, len), run = 1 + (size_t)czk_rng_below(rng, 96);
        if (at + run > len) run = len - at;
        memmove(out + at, out + at + run, len - at - run);
        return len - run;
    }
    default: { /* splice: insert a chunk of another seed of the same target */
        const uint8_t *o = all->d[czk_rng_below(rng, all->n)];
        size_t on = all->len[0], oi = (size_t)czk_rng_below(rng, all->n);
        o = all->d[oi], on = all->len[oi];
        if (!on || !len) return len;
        size_t from = (size_t)czk_rng_below(rng, on), run = 1 + (size_t)czk_rng_below(rng, 64);
        if (from + run > on) run = on - from;
        if (len + run > cap) return len;
        size_t at = (size_t)czk_rng_below(rng, len + 1);
        memmove(out + at + run, out + at, len - at);
        memcpy(out + at, o + from, run);
        return len + run;
    }
    }
}

/* Mutations per seed: a few thousand per target in all (bigger inputs,
 * whose parses cost more, get fewer). */
static size_t mutations_for(const char *name, size_t seed_len, size_t n_seeds)
{
    size_t total = seed_len > 100000 ? 300 : seed_len > 10000 ? 1500 : 3000;
    /* every accepted point costs a subgroup check */
    if (strncmp(name, "groth16_", 8) == 0 && strcmp(name, "groth16_proof") != 0) total = 600;
    if (getenv("CZK_TEST_ASAN")) total /= 6;
    total = czk_test_iters(total);
    return (total + n_seeds - 1) / n_seeds;
}

static void run_target(const char *name)
{
    const czk_fuzz_target *t = czk_fuzz_target_find(name);
    REQUIRE(t != NULL);
    seedset s = {0};
    int ns = czk_fuzz_seeds(name, collect, &s);
    CHECK_MSG(ns > 0 && (size_t)ns == s.n, "%s: seeds: %d (%s)", name, ns, czk_last_error());
    if (s.n == 0) return;
    for (size_t i = 0; i < s.n; i++)
        CHECK_MSG(run_one(t, s.d[i], s.len[i]) == CZK_OK, "%s: seed %zu (%zu bytes) rejected: %s", name, i,
                  s.len[i], czk_last_error());

    czk_rng rng;
    czk_rng_seed(&rng, 0xf022c0de ^ (uint64_t)(t - czk_fuzz_targets));
    size_t cap = 0;
    for (size_t i = 0; i < s.n; i++)
        if (s.len[i] > cap) cap = s.len[i];
    cap += 4096;
    uint8_t *buf = malloc(cap);
    REQUIRE(buf != NULL);
    size_t runs = 0, accepted = 0;
    for (size_t i = 0; i < s.n; i++) {
        const uint8_t *d = s.d[i];
        size_t n = s.len[i];
        /* truncations: every prefix of short seeds, a sample of long ones */
        if (truncation_fails(name)) {
            size_t step = n <= 512 ? 1 : n / 100 + 1;
            for (size_t k = 0; k < n; k += step) {
                int st = run_one(t, d, k);
                runs++;
                CHECK_MSG(st != CZK_OK, "%s: seed %zu cut to %zu of %zu bytes was accepted", name, i, k, n);
            }
        }
        /* oversized: trailing garbage after a complete binary file */
        if (strcmp(name, "groth16_params") == 0 || strncmp(name, "pce", 3) == 0 ||
            strcmp(name, "circom_r1cs") == 0 || strcmp(name, "circom_wtns") == 0 || strcmp(name, "circom_zkey") == 0 ||
            strcmp(name, "post_vanilla") == 0 || strcmp(name, "snap_vanilla") == 0) {
            memcpy(buf, d, n);
            memset(buf + n, 0xa5, 64);
            int st = run_one(t, buf, n + 64);
            runs++;
            CHECK_MSG(st != CZK_OK, "%s: seed %zu with 64 trailing bytes was accepted", name, i);
        }
        /* wrong magic */
        if (has_magic(name)) {
            for (int b = 0; b < 4 && (size_t)b < n; b++) {
                memcpy(buf, d, n);
                buf[b] ^= 0x20;
                int st = run_one(t, buf, n);
                runs++;
                CHECK_MSG(st == CZK_ERR_FORMAT, "%s: seed %zu with magic byte %d changed: status %d", name, i, b, st);
            }
        }
        size_t m = mutations_for(name, n, s.n);
        for (size_t k = 0; k < m; k++) {
            size_t len = mutate(buf, cap, d, n, &s, &rng);
            if (run_one(t, buf, len) == CZK_OK) accepted++;
            runs++;
        }
    }
    free(buf);
    CHECK(runs > 0);
    if (getenv("CZK_FUZZ_VERBOSE"))
        fprintf(stderr, "  %-22s %zu seeds, %zu runs, %zu mutants accepted\n", name, s.n, runs, accepted);
    seedset_clear(&s);
}

#define FUZZ_TEST(name) \
    CZK_TEST(fuzz_corpus_##name) { run_target(#name); }
FUZZ_TEST(fc_c1)
FUZZ_TEST(fc_base64)
FUZZ_TEST(groth16_params)
FUZZ_TEST(groth16_vk)
FUZZ_TEST(groth16_proof)
FUZZ_TEST(g1_compressed)
FUZZ_TEST(g1_uncompressed)
FUZZ_TEST(g2_compressed)
FUZZ_TEST(g2_uncompressed)
FUZZ_TEST(field_bytes)
FUZZ_TEST(field_str)
FUZZ_TEST(pce)
FUZZ_TEST(pce_resum)
FUZZ_TEST(circom_r1cs)
FUZZ_TEST(circom_wtns)
FUZZ_TEST(circom_zkey)
FUZZ_TEST(circom_sym)
FUZZ_TEST(snarkjs_proof_json)
FUZZ_TEST(snarkjs_public_json)
FUZZ_TEST(snarkjs_vk_json)
FUZZ_TEST(post_vanilla)
FUZZ_TEST(post_json)
FUZZ_TEST(snap_vanilla)
FUZZ_TEST(snap_json)

/* Every target has a test above. */
CZK_TEST(fuzz_corpus_all_targets_listed)
{
    CHECK_EQ_U64(czk_fuzz_n_targets, 24);
}

/* fuzz/regressions/<target>-<n>.bin: inputs that once crashed a parser. */
CZK_TEST(fuzz_regressions)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/fuzz/regressions", CZK_SOURCE_DIR);
    DIR *dp = opendir(dir);
    REQUIRE(dp != NULL);
    struct dirent *e;
    size_t n = 0;
    while ((e = readdir(dp)) != NULL) {
        const char *nm = e->d_name, *dash = strrchr(nm, '-');
        size_t l = strlen(nm);
        if (l < 5 || strcmp(nm + l - 4, ".bin") != 0 || !dash) continue;
        char tname[256];
        size_t tl = (size_t)(dash - nm);
        if (tl >= sizeof tname) continue;
        memcpy(tname, nm, tl);
        tname[tl] = 0;
        const czk_fuzz_target *t = czk_fuzz_target_find(tname);
        CHECK_MSG(t != NULL, "fuzz/regressions/%s: no target '%s'", nm, tname);
        if (!t) continue;
        char path[8192];
        snprintf(path, sizeof path, "%s/%s", dir, nm);
        FILE *f = fopen(path, "rb");
        CHECK_MSG(f != NULL, "cannot open %s", path);
        if (!f) continue;
        sbuf b = {0};
        uint8_t tmp[65536];
        size_t r;
        while ((r = fread(tmp, 1, sizeof tmp, f)) > 0) put(&b, tmp, r);
        fclose(f);
        REQUIRE(!b.bad);
        run_one(t, b.p, b.n);
        free(b.p);
        n++;
    }
    closedir(dp);
    if (getenv("CZK_FUZZ_VERBOSE")) fprintf(stderr, "  %zu regression inputs replayed\n", n);
}
