/* czk fuzz targets: one entry point per parser, shared by the libFuzzer
 * harnesses (fuzz/fuzz_main.c, one binary per target) and the corpus replay
 * test (tests/fuzz/test_fuzz_corpus.c), which also builds the seed inputs
 * (fuzz/fuzz_seeds.c).
 *
 * Each entry point feeds its input to the parser exactly as a file or buffer
 * would arrive, frees whatever the parser returned, and calls abort() (via
 * CZK_FUZZ_CHECK) only when an accepted input breaks an invariant that the
 * parser's contract promises (re-encoding a decoded value gives the input
 * back, counts fit the input, messages are set on errors). A crash,
 * sanitizer report or abort is a bug in the parser. */
#ifndef CZK_FUZZ_TARGETS_H
#define CZK_FUZZ_TARGETS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "czk/common.h"

/* An invariant a harness asserts: a violation is a finding (abort). */
#define CZK_FUZZ_CHECK(c)                                                                 \
    do {                                                                                  \
        if (!(c)) {                                                                       \
            fprintf(stderr, "czk fuzz: invariant failed: %s (%s:%d)\n", #c, __FILE__, __LINE__); \
            abort();                                                                      \
        }                                                                                 \
    } while (0)

typedef int (*czk_fuzz_fn)(const uint8_t *data, size_t size);

typedef struct czk_fuzz_target {
    const char *name;
    czk_fuzz_fn fn;
} czk_fuzz_target;

extern const czk_fuzz_target czk_fuzz_targets[];
extern const size_t czk_fuzz_n_targets;
const czk_fuzz_target *czk_fuzz_target_find(const char *name);

/* Status of the last run's main parse call (field targets: CZK_OK when any
 * of their parsers accepted). Set only when the input reached the parser. */
extern int czk_fuzz_status;

#define CZK_FUZZ_DECL(name) int czk_fuzz_##name(const uint8_t *data, size_t size)
CZK_FUZZ_DECL(fc_c1);
CZK_FUZZ_DECL(fc_base64);
CZK_FUZZ_DECL(groth16_params);
CZK_FUZZ_DECL(groth16_vk);
CZK_FUZZ_DECL(groth16_proof);
CZK_FUZZ_DECL(g1_compressed);
CZK_FUZZ_DECL(g1_uncompressed);
CZK_FUZZ_DECL(g2_compressed);
CZK_FUZZ_DECL(g2_uncompressed);
CZK_FUZZ_DECL(field_bytes);
CZK_FUZZ_DECL(field_str);
CZK_FUZZ_DECL(pce);
CZK_FUZZ_DECL(pce_resum);
CZK_FUZZ_DECL(circom_r1cs);
CZK_FUZZ_DECL(circom_wtns);
CZK_FUZZ_DECL(circom_zkey);
CZK_FUZZ_DECL(circom_sym);
CZK_FUZZ_DECL(snarkjs_proof_json);
CZK_FUZZ_DECL(snarkjs_public_json);
CZK_FUZZ_DECL(snarkjs_vk_json);
CZK_FUZZ_DECL(post_vanilla); /* fuzz/fuzz_post_vanilla.c */
CZK_FUZZ_DECL(post_json);
CZK_FUZZ_DECL(snap_vanilla); /* fuzz/fuzz_snap_vanilla.c */
CZK_FUZZ_DECL(snap_json);

/* Seed inputs of a target: calls emit(ctx, data, size) once per seed.
 * Returns the number of seeds, or -1 when a seed could not be built. */
typedef void (*czk_fuzz_emit_fn)(void *ctx, const uint8_t *data, size_t size);
int czk_fuzz_seeds(const char *target, czk_fuzz_emit_fn emit, void *ctx);
/* The post_vanilla target's seeds (fuzz/fuzz_post_vanilla.c). */
int czk__fuzz_seeds_post_vanilla(czk_fuzz_emit_fn emit, void *ctx);
/* The post_json target's seeds: the vectors' post-window.json and
 * post-winning.json (fuzz/fuzz_post_vanilla.c). */
int czk__fuzz_seeds_post_json(czk_fuzz_emit_fn emit, void *ctx);
/* The snap_vanilla and snap_json targets' seeds: the vectors' real 2KiB
 * partition proof and snap.json, synthetic 8MiB / 32GiB / 64GiB partition
 * proofs (fuzz/fuzz_snap_vanilla.c). */
int czk__fuzz_seeds_snap_vanilla(czk_fuzz_emit_fn emit, void *ctx);
int czk__fuzz_seeds_snap_json(czk_fuzz_emit_fn emit, void *ctx);

/* ---- what the target files share (fuzz_targets.c) ---- */

/* Every failure is a known status other than INTERNAL and carries a message. */
void czk__fuzz_check_status(czk_status s);
/* One seed of a target whose first byte selects the shape: emit(ctx,
 * sel || d[0..n)); *count + 1 unless it is -1, -1 when out of memory. */
void czk__fuzz_emit_selected(czk_fuzz_emit_fn emit, void *ctx, unsigned sel, const uint8_t *d, size_t n,
                             int *count);
#ifdef CZK_SOURCE_DIR
/* tests/filecoin/vectors/<name>, whole (malloc'd; NULL when it cannot be
 * read or is empty); its size in *len. */
uint8_t *czk__fuzz_vector(const char *name, size_t *len);
#endif

#endif
