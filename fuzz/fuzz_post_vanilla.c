/* Fuzz target post_vanilla: czk_post_vanilla_read (and czk_post_vanilla_check
 * on what it accepts) on one bincode FallbackPoStSectorProof.
 *
 * Input: one selector byte, then the proof's bytes. The selector (mod 5)
 * picks the shape the proof is read against: 0 2KiB WindowPoSt (10
 * challenges), 1 2KiB WinningPoSt (66), 2 8MiB Window, 3 32GiB Window (Sub
 * tree), 4 64GiB Window (Top tree). The randomness and prover_id are those of
 * the real proofs in tests/filecoin/vectors, so the real seeds pass the check.
 *
 * Invariants on acceptance: the check returns OK or CZK_ERR_VERIFY, and the
 * writer gives back exactly the input's proof bytes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "czk/common.h"
#include "czk/post_vanilla.h"
#include "czk/rand.h"
#include "fuzz_targets.h"

#define PV_SHAPES 5

static const uint8_t PV_RANDOMNESS[32] = {101, 74,  140, 26,  132, 0,   98,  4,   60,  181, 147,
                                          127, 150, 21,  151, 114, 160, 42,  157, 251, 251, 190,
                                          0,   120, 152, 161, 217, 248, 177, 41,  122, 55};
static const uint8_t PV_PROVER_ID[32] = {239, 7};

/* Shape of selector `sel` (czk_post_shape_of belongs to the circuit's
 * post.c; the fuzz target builds its few shapes itself). */
static int pv_shape(czk_post_shape *s, unsigned sel)
{
    static const uint64_t size[PV_SHAPES] = {1ULL << 11, 1ULL << 11, 1ULL << 23, 1ULL << 35, 1ULL << 36};
    memset(s, 0, sizeof *s);
    if (czk_fc_shape_of_size(&s->tree, size[sel % PV_SHAPES]) != CZK_OK) return 0;
    s->api = CZK_POST_API_V1_2;
    if (sel % PV_SHAPES == 1) {
        s->kind = CZK_POST_WINNING, s->sectors = 66, s->challenges = 1, s->sector_challenges = 66;
    } else {
        s->kind = CZK_POST_WINDOW, s->challenges = 10, s->sector_challenges = 10;
        s->sectors = sel % PV_SHAPES == 3 ? 2349 : sel % PV_SHAPES == 4 ? 2300 : 2;
    }
    return 1;
}

int czk_fuzz_post_vanilla(const uint8_t *d, size_t n)
{
    czk_post_shape s;
    if (n < 1 || !pv_shape(&s, d[0])) return 0;
    const uint8_t *p[1] = {d + 1};
    size_t len[1] = {n - 1};
    czk_post_vanilla v;
    czk_error_clear();
    czk_status st = czk_post_vanilla_read(&v, &s, p, len, 1, PV_RANDOMNESS, PV_PROVER_ID, 0);
    czk__fuzz_check_status(st);
    czk_fuzz_status = st;
    if (st != CZK_OK) {
        CZK_FUZZ_CHECK(v.arena == NULL);
        return 0;
    }
    CZK_FUZZ_CHECK(v.n == 1 && v.proofs[0].n_inclusion == s.sector_challenges);
    CZK_FUZZ_CHECK(n - 1 == czk_post_sector_proof_bytes(&s.tree, s.sector_challenges));
    czk_error_clear();
    czk_status c = czk_post_vanilla_check(&v);
    czk__fuzz_check_status(c);
    CZK_FUZZ_CHECK(c == CZK_OK || c == CZK_ERR_VERIFY);
    uint8_t *out = malloc(n);
    if (out) {
        size_t w = 0;
        czk_status e = czk_post_sector_proof_encode(out, n, &w, &v.proofs[0], &s.tree);
        CZK_FUZZ_CHECK(e == CZK_OK && w == n - 1 && memcmp(out, d + 1, w) == 0);
        free(out);
    }
    czk_post_vanilla_free(&v);
    return 0;
}

/* ---- seeds ---------------------------------------------------------------- */

/* A proof of shape sel with pseudo-random values (format-valid; the check
 * fails): written by czk's writer. */
static void pv_synthetic(czk_fuzz_emit_fn emit, void *ctx, unsigned sel, uint64_t seed, int *count)
{
    czk_post_shape s;
    if (!pv_shape(&s, sel)) {
        *count = -1;
        return;
    }
    czk_rng rng;
    czk_rng_seed(&rng, seed);
    size_t t = czk_fc_shape_tree_siblings(&s.tree);
    size_t sz = czk_post_sector_proof_storage_size(&s.tree, s.sector_challenges);
    size_t bytes = czk_post_sector_proof_bytes(&s.tree, s.sector_challenges);
    void *storage = malloc(sz);
    uint8_t *out = malloc(bytes);
    if (!storage || !out) {
        free(storage), free(out);
        *count = -1;
        return;
    }
    czk_post_sector_proof p;
    czk_fc_merkle *inc = storage;
    czk_fr *pool = (czk_fr *)(inc + s.sector_challenges);
    p.sector_id = czk_rng_below(&rng, 1000000);
    czk_fr_random(&p.comm_c, &rng);
    czk_fr_random(&p.comm_r_last, &rng);
    czk_fr_random(&p.comm_r, &rng);
    p.n_inclusion = s.sector_challenges;
    p.inclusion = inc;
    for (uint32_t k = 0; k < s.sector_challenges; k++) {
        inc[k].index = czk_rng_below(&rng, s.tree.nodes);
        inc[k].root = p.comm_r_last;
        czk_fr_random(&inc[k].leaf, &rng);
        inc[k].siblings = pool + (size_t)k * t;
        for (size_t j = 0; j < t; j++) czk_fr_random(&inc[k].siblings[j], &rng);
    }
    size_t len = 0;
    if (czk_post_sector_proof_encode(out, bytes, &len, &p, &s.tree) == CZK_OK)
        czk__fuzz_emit_selected(emit, ctx, sel, out, len, count);
    else
        *count = -1;
    free(storage);
    free(out);
}

int czk__fuzz_seeds_post_vanilla(czk_fuzz_emit_fn emit, void *ctx)
{
    int count = 0;
#ifdef CZK_SOURCE_DIR
    /* the real proofs, and the window proof of another sector id */
    static const char *const real[2] = {"vanilla-window.bin", "vanilla-winning.bin"};
    for (unsigned i = 0; i < 2; i++) {
        size_t n = 0;
        uint8_t *d = czk__fuzz_vector(real[i], &n);
        if (!d) {
            czk_error(CZK_ERR_IO, "post_vanilla seeds: cannot read %s/tests/filecoin/vectors/%s", CZK_SOURCE_DIR,
                      real[i]);
            return -1;
        }
        czk__fuzz_emit_selected(emit, ctx, i, d, n, &count);
        if (i == 0 && n >= 8) {
            d[0] ^= 1;
            czk__fuzz_emit_selected(emit, ctx, 0, d, n, &count);
        }
        free(d);
    }
#endif
    pv_synthetic(emit, ctx, 2, 0x9057a, &count);
    pv_synthetic(emit, ctx, 3, 0x9057b, &count);
    pv_synthetic(emit, ctx, 4, 0x9057c, &count);
    return count;
}

int czk__fuzz_seeds_post_json(czk_fuzz_emit_fn emit, void *ctx)
{
    int count = 0;
#ifdef CZK_SOURCE_DIR
    static const char *const real[2] = {"post-window.json", "post-winning.json"};
    for (unsigned i = 0; i < 2; i++) {
        size_t n = 0;
        uint8_t *d = czk__fuzz_vector(real[i], &n);
        if (!d) {
            czk_error(CZK_ERR_IO, "post_json seeds: cannot read %s/tests/filecoin/vectors/%s", CZK_SOURCE_DIR, real[i]);
            return -1;
        }
        emit(ctx, d, n);
        count++;
        free(d);
    }
#endif
    /* a 64GiB Window proof of one sector, written compactly */
    static const char top[] =
        "{\"registered_post_proof\":\"StackedDrgWindow64GiBV1_2\",\"randomness\":[1,2,3,4,5,6,7,8,9,10,11,12,13,14,"
        "15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32],\"prover_id\":[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,"
        "0,0,0,0,0,0,0,0,0,0,0,0],\"sector_ids\":[9223372036854775807],\"comm_r\":[[255,255,255,255,255,255,255,255,"
        "255,255,255,255,255,255,255,255,255,255,255,255,255,255,255,255,255,255,255,255,255,255,255,255]],"
        "\"challenges\":[0,1,2,3,4,5,6,7,8,2147483647]}";
    emit(ctx, (const uint8_t *)top, sizeof top - 1);
    return count + 1;
}
