/* Fuzz targets snap_vanilla and snap_json: czk_snap_partition_decode (and,
 * for a one-partition update, czk_snap_vanilla_read and
 * czk_snap_vanilla_check) on one bincode PartitionProof; czk_snap_json_read.
 *
 * snap_vanilla input: one selector byte, then the proof's bytes. The
 * selector (mod 4) picks the shape: 0 2KiB (read as an update with the
 * commitments of the real proof in tests/filecoin/vectors, then checked),
 * 1 8MiB, 2 32GiB (Sub tree R), 3 64GiB (Top tree R) (decoded as partition
 * 0).
 *
 * Invariants on acceptance: the input has the shape's exact size, the check
 * returns OK or CZK_ERR_VERIFY, and the writer gives back the proof bytes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "czk/common.h"
#include "czk/rand.h"
#include "czk/snap.h"
#include "fuzz_targets.h"

#define SV_SHAPES 4

/* tests/filecoin/vectors/snap.json: the real 2KiB update's commitments */
static const uint8_t SV_COMM_R_OLD[32] = {199, 45, 158, 251, 198, 38, 28, 239, 218, 72, 193, 38, 30, 191, 25, 247,
    160, 180, 230, 222, 52, 47, 49, 15, 201, 100, 110, 63, 69, 144, 250, 13};
static const uint8_t SV_COMM_D_NEW[32] = {223, 38, 126, 209, 222, 156, 57, 21, 225, 148, 26, 155, 85, 225, 60, 176,
    87, 227, 251, 218, 2, 9, 95, 37, 222, 50, 33, 159, 46, 55, 16, 48};
static const uint8_t SV_COMM_R_NEW[32] = {111, 116, 16, 128, 46, 230, 248, 221, 209, 202, 57, 176, 18, 229, 53, 45,
    73, 135, 208, 190, 84, 71, 35, 247, 34, 107, 127, 7, 161, 100, 45, 54};

static int sv_shape(czk_snap_shape *s, unsigned sel)
{
    static const uint64_t size[SV_SHAPES] = {1ULL << 11, 1ULL << 23, 1ULL << 35, 1ULL << 36};
    return czk_snap_shape_of(s, size[sel % SV_SHAPES]) == CZK_OK;
}

int czk_fuzz_snap_vanilla(const uint8_t *d, size_t n)
{
    czk_snap_shape s;
    if (n < 1 || !sv_shape(&s, d[0])) return 0;
    const uint8_t *p = d + 1;
    const size_t len = n - 1;
    czk_error_clear();
    czk_status st;
    uint8_t *out = NULL;
    if (s.partitions == 1) {
        czk_snap_vanilla v;
        st = czk_snap_vanilla_read(&v, &s, &p, &len, 1, SV_COMM_R_OLD, SV_COMM_D_NEW, SV_COMM_R_NEW);
        czk__fuzz_check_status(st);
        czk_fuzz_status = st;
        if (st != CZK_OK) {
            CZK_FUZZ_CHECK(v.arena == NULL);
            return 0;
        }
        CZK_FUZZ_CHECK(len == czk_snap_partition_proof_bytes(&s));
        czk_error_clear();
        czk_status c = czk_snap_vanilla_check(&v);
        czk__fuzz_check_status(c);
        CZK_FUZZ_CHECK(c == CZK_OK || c == CZK_ERR_VERIFY);
        if ((out = malloc(len)) != NULL) {
            size_t w = 0;
            czk_status e = czk_snap_partition_encode(out, len, &w, &v.parts[0], &s);
            CZK_FUZZ_CHECK(e == CZK_OK && w == len && memcmp(out, p, len) == 0);
        }
        czk_snap_vanilla_free(&v);
    } else {
        size_t sz = czk_snap_partition_storage_size(&s);
        void *storage = malloc(sz);
        if (!storage) return 0;
        czk_snap_partition part;
        st = czk_snap_partition_decode(&part, storage, sz, p, len, &s, 0);
        czk__fuzz_check_status(st);
        czk_fuzz_status = st;
        if (st == CZK_OK) {
            CZK_FUZZ_CHECK(len == czk_snap_partition_proof_bytes(&s));
            if ((out = malloc(len)) != NULL) {
                size_t w = 0;
                czk_status e = czk_snap_partition_encode(out, len, &w, &part, &s);
                CZK_FUZZ_CHECK(e == CZK_OK && w == len && memcmp(out, p, len) == 0);
            }
        }
        free(storage);
    }
    free(out);
    return 0;
}

/* snap.json (czk_snap_json_read): on acceptance a known update proof with
 * its own partition count. */
int czk_fuzz_snap_json(const uint8_t *d, size_t n)
{
    char path[] = "/tmp/czk-fuzz-snap-json-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0) return 0;
    FILE *f = fdopen(fd, "wb");
    if (!f) return 0;
    size_t w = n ? fwrite(d, 1, n, f) : 0;
    fclose(f);
    if (w != n) {
        remove(path);
        return 0;
    }
    czk_snap_json m;
    czk_error_clear();
    czk_status s = czk_snap_json_read(&m, path);
    remove(path);
    czk__fuzz_check_status(s);
    czk_fuzz_status = s;
    if (s == CZK_OK) {
        czk_snap_shape t;
        CZK_FUZZ_CHECK(m.shape.update_proof >= 0 && czk_snap_shape_of_proof(&t, m.shape.update_proof) == CZK_OK);
        CZK_FUZZ_CHECK(m.partitions == t.partitions);
    }
    return 0;
}

/* ---- seeds ---------------------------------------------------------------- */

/* A partition proof of shape sel with pseudo-random values (format-valid),
 * written by czk's writer. */
static void sv_synthetic(czk_fuzz_emit_fn emit, void *ctx, unsigned sel, uint64_t seed, int *count)
{
    czk_snap_shape s;
    if (!sv_shape(&s, sel)) {
        *count = -1;
        return;
    }
    czk_rng rng;
    czk_rng_seed(&rng, seed);
    const size_t sz = czk_snap_partition_storage_size(&s), bytes = czk_snap_partition_proof_bytes(&s);
    const size_t sr = czk_fc_shape_tree_siblings(&s.tree);
    uint8_t *storage = calloc(1, sz), *out = malloc(bytes);
    if (!storage || !out) {
        free(storage), free(out);
        *count = -1;
        return;
    }
    czk_snap_partition p;
    czk_fr *leaves = (czk_fr *)storage;
    czk_snap_challenge_proof *cps = (czk_snap_challenge_proof *)(leaves + s.apex_leaves);
    czk_fr *pool = (czk_fr *)(cps + s.challenges);
    czk_fr_random(&p.comm_c, &rng);
    for (uint32_t i = 0; i < s.apex_leaves; i++) czk_fr_random(&leaves[i], &rng);
    for (uint32_t c = 0; c < s.challenges; c++) {
        czk_fc_merkle *m[3] = {&cps[c].r_old, &cps[c].d_new, &cps[c].r_new};
        size_t ns[3] = {sr, s.challenge_bits, sr};
        for (int k = 0; k < 3; k++) {
            m[k]->index = czk_rng_below(&rng, s.tree.nodes);
            czk_fr_random(&m[k]->root, &rng);
            czk_fr_random(&m[k]->leaf, &rng);
            m[k]->siblings = pool;
            for (size_t j = 0; j < ns[k]; j++) czk_fr_random(&pool[j], &rng);
            pool += ns[k];
        }
    }
    p.apex_leaves = leaves;
    p.proofs = cps;
    size_t len = 0;
    if (czk_snap_partition_encode(out, bytes, &len, &p, &s) == CZK_OK)
        czk__fuzz_emit_selected(emit, ctx, sel, out, len, count);
    else
        *count = -1;
    free(storage);
    free(out);
}

int czk__fuzz_seeds_snap_vanilla(czk_fuzz_emit_fn emit, void *ctx)
{
    int count = 0;
#ifdef CZK_SOURCE_DIR
    size_t n = 0;
    uint8_t *d = czk__fuzz_vector("snap-partition-0.bin", &n);
    if (!d) {
        czk_error(CZK_ERR_IO, "snap_vanilla seeds: cannot read %s/tests/filecoin/vectors/snap-partition-0.bin",
                  CZK_SOURCE_DIR);
        return -1;
    }
    czk__fuzz_emit_selected(emit, ctx, 0, d, n, &count);
    d[0] ^= 1; /* comm_c changed: well-formed, the check fails */
    czk__fuzz_emit_selected(emit, ctx, 0, d, n, &count);
    free(d);
#endif
    sv_synthetic(emit, ctx, 1, 0x5a1, &count);
    sv_synthetic(emit, ctx, 2, 0x5a2, &count);
    sv_synthetic(emit, ctx, 3, 0x5a3, &count);
    return count;
}

int czk__fuzz_seeds_snap_json(czk_fuzz_emit_fn emit, void *ctx)
{
    int count = 0;
#ifdef CZK_SOURCE_DIR
    size_t n = 0;
    uint8_t *d = czk__fuzz_vector("snap.json", &n);
    if (!d) {
        czk_error(CZK_ERR_IO, "snap_json seeds: cannot read %s/tests/filecoin/vectors/snap.json", CZK_SOURCE_DIR);
        return -1;
    }
    emit(ctx, d, n);
    count++;
    free(d);
#endif
    static const char big[] =
        "{\"registered_update_proof\":\"StackedDrg64GiBV1\",\"partitions\":16,\"comm_r_old\":[1,2,3,4,5,6,7,8,9,10,11,"
        "12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32],\"comm_d_new\":[0,0,0,0,0,0,0,0,0,0,0,0,0,0,"
        "0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0],\"comm_r_new\":[255,255,255,255,255,255,255,255,255,255,255,255,255,255,"
        "255,255,255,255,255,255,255,255,255,255,255,255,255,255,255,255,255,63]}";
    emit(ctx, (const uint8_t *)big, sizeof big - 1);
    return count + 1;
}
