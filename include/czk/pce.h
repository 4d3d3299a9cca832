/* czk — pre-compiled constraint evaluation (PCE).
 *
 * A circuit's matrices A, B, C depend only on its shape; each proof needs only
 * the witness and the products a = A.w, b = B.w, c = C.w. A czk_pce holds the
 * three matrices in a compact CSR form:
 *
 *   per matrix   u16 row length (65535 = look up the overflow list), u32
 *                column over [inputs | aux], u16 coefficient code; a table
 *                of coefficient values with an evaluation class per code
 *                (multiply, or +-2^e without multiplication); a block index
 *                (nnz offset every CZK_PCE_BLOCK rows) for parallel evaluation.
 *   densities    A-aux, B-input and B-aux bitmaps (docs/groth16.md), derived from
 *                the non-zero coefficients, as the PROVE backend marks them.
 *
 * Zero coefficients are dropped (they neither contribute nor mark density).
 * That is 6 bytes per non-zero plus 2 bytes per row and matrix (32GiB PoRep
 * partition: 722,388,891 non-zeros in 4.80 GiB, 7.13 bytes per non-zero).
 *
 * Evaluation: within a row, terms with a general coefficient are multiplied;
 * the +-2^e terms (stored after them by decreasing e) are summed by Horner's
 * rule with doublings; +-1 is an add/sub; single-term rows are a copy. Rows
 * split across threads by blocks, A/B/C of a block together; access is
 * streaming (czk_pce_eval_range evaluates a row range into small buffers).
 *
 * Files: "CZKPCE" magic, version, a key string (circuit shape + czk version),
 * counts, the arrays, and an XXH3-64 checksum of everything before it;
 * written atomically; validated on read (checksum, key, every column and code
 * in range, coefficients canonical, classes matching the values).
 *
 * Recording (czk_pce_recorder) builds the PCE directly from synthesis
 * without the SHAPE backend's 40-byte-per-term CSR. See src/pce/README.md.
 */
#ifndef CZK_PCE_H
#define CZK_PCE_H

#include "czk/cs.h"
#include "czk/filecoin.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CZK_PCE_BLOCK 1024
#define CZK_PCE_KEY_MAX 256

typedef struct czk_pce czk_pce;

typedef struct czk_pce_info {
    uint64_t rows, cols, n_inputs;
    uint64_t nnz[3];      /* non-zeros of A, B, C (zero coefficients dropped) */
    uint64_t distinct[3]; /* distinct coefficient values per matrix */
    uint64_t unit[3];     /* non-zeros with coefficient +-1 */
    uint64_t pow2[3];     /* non-zeros evaluated without multiplication (+-2^e, Horner) */
    uint64_t a_aux_popcount, b_input_popcount, b_aux_popcount;
    size_t bytes;         /* memory held by the matrices and densities */
    /* Read from a file: its matrices are a mapping of it (page cache, which
     * the kernel may reclaim and read back), mapped_bytes of them, the
     * largest matrix's max_matrix_bytes, and eval_bytes: the most of the
     * mapping an evaluation holds at once (the coefficient tables and one
     * window of rows of the three matrices; the rows' pages leave the
     * process window by window); 0 for a PCE built in memory. */
    size_t mapped_bytes, max_matrix_bytes, eval_bytes;
    double bytes_per_nnz; /* bytes / (nnz A + B + C) */
    char key[CZK_PCE_KEY_MAX];
} czk_pce_info;

/* Compile the SHAPE backend's matrices (after czk_cs_finalize). n_inputs
 * includes ONE. key names the circuit shape (stored in files). */
czk_status czk_pce_from_csr(czk_pce **out, const czk_csr *a, const czk_csr *b, const czk_csr *c,
                            uint64_t n_inputs, const char *key) CZK_WUR;
void czk_pce_destroy(czk_pce *p);
void czk_pce_info_get(const czk_pce *p, czk_pce_info *info);

/* a = A.w, b = B.w, c = C.w for w = [input | aux] (any of a, b, c may be
 * NULL to skip that matrix). n_input / n_aux must equal the shape's. threads
 * 0: czk_threads(). */
czk_status czk_pce_eval(const czk_pce *p, czk_fr *a, czk_fr *b, czk_fr *c, const czk_fr *input,
                        size_t n_input, const czk_fr *aux, size_t n_aux, int threads) CZK_WUR;

/* Rows [row0, row1) only (streaming in bounded memory): out[r - row0] for
 * each requested matrix; row0 a multiple of CZK_PCE_BLOCK, row1 <= rows. */
czk_status czk_pce_eval_range(const czk_pce *p, czk_fr *a, czk_fr *b, czk_fr *c, uint64_t row0, uint64_t row1,
                              const czk_fr *input, size_t n_input, const czk_fr *aux, size_t n_aux,
                              int threads) CZK_WUR;
uint64_t czk_pce_rows(const czk_pce *p);

/* A prover assignment made of borrowed vectors: the witness (input, aux),
 * a/b/c from czk_pce_eval, and the PCE's densities. */
void czk_pce_assignment(czk_cs_assignment *out, const czk_pce *p, const czk_fr *input,
                        const czk_fr *aux, const czk_fr *a, const czk_fr *b, const czk_fr *c);

/* The QAP column sums a setup needs (czk_groth16_setup_circuit.columns):
 * acc[col] += sum over rows r in [row0, row1) of M[r][col] * lag[r - row0]
 * for matrix 0 (A), 1 (B) or 2 (C); acc has the PCE's column count; rows
 * count bellperson's input rows. Threads own column ranges: no atomics,
 * the rows read once per thread. */
czk_status czk_pce_columns(const czk_pce *p, int matrix, czk_fr *acc, const czk_fr *lag, uint64_t row0,
                           uint64_t row1, int threads) CZK_WUR;

/* Files. read: expect_key NULL accepts any key; otherwise a different key is
 * CZK_ERR_FORMAT naming both. */
czk_status czk_pce_write(const czk_pce *p, const char *path) CZK_WUR;
czk_status czk_pce_read(czk_pce **out, const char *path, const char *expect_key) CZK_WUR;


/* ---- recording a circuit straight into a PCE -------------------------------
 * A constraint-system backend (SHAPE semantics: no values, constraints wanted)
 * whose enforce appends compact rows directly: no CSR of 40-byte terms is ever
 * held (the 32GiB PoRep partition needs ~5 GB instead of ~29 GB). */
typedef struct czk_pce_recorder czk_pce_recorder;
/* *cs is the recorder's constraint system (ONE allocated), owned by the
 * recorder. sizes (may be NULL) pre-sizes the row arrays. */
czk_status czk_pce_recorder_create(czk_pce_recorder **out, czk_cs **cs, czk_lc_kind lc,
                                   const czk_cs_sizes *sizes) CZK_WUR;
/* Report progress (fraction 0..0.9 of total_rows) every 2^20 constraints. */
typedef void (*czk_pce_progress_fn)(void *ctx, const char *stage, double fraction);
void czk_pce_recorder_set_progress(czk_pce_recorder *r, czk_pce_progress_fn fn, void *ctx, uint64_t total_rows);
/* Append bellperson's input rows (input_i) * 0 = 0 and compile. */
czk_status czk_pce_recorder_finish(czk_pce_recorder *r, czk_pce **out, const char *key) CZK_WUR;
void czk_pce_recorder_destroy(czk_pce_recorder *r);

/* ---- PCE of any circuit: the cache, a partition's workspace, validation -----
 * A circuit's driver (PoRep: below; FallbackPoSt: czk/post_kind.h) supplies
 * the shape's key, its recording and its witness-only synthesis. */

/* The cache file of a key: dir/pce-<label>-<digest of key>.pce in czk's cache
 * directory (czk_cache_dir; made if missing). label: a short readable name
 * of the shape (no '/'). */
czk_status czk_pce_cache_file(char *out, size_t n, const char *key, const char *label) CZK_WUR;
/* Record a circuit into a PCE: synth(cs, ctx) on the recorder's constraint
 * system (ONE allocated; without finalize), which must end with exactly
 * sizes' counts (n_constraints with the input rows); then the input rows
 * and the compilation under key. */
typedef czk_status (*czk_pce_synth_fn)(czk_cs *cs, const void *ctx);
czk_status czk_pce_record(czk_pce **out, const czk_cs_sizes *sizes, czk_pce_synth_fn synth, const void *ctx,
                          const char *key, czk_pce_progress_fn progress, void *pctx) CZK_WUR;
/* Whether path is a regular file. */
int czk_pce_cache_has(const char *path);
/* Record the shape into *out (the driver's recording pass). */
typedef czk_status (*czk_pce_build_fn)(czk_pce **out, void *ctx, czk_pce_progress_fn progress, void *pctx);
/* Load the PCE of `key` from path, or build it (build(out, build_ctx, ...))
 * and write it there (a damaged or mismatched file is rebuilt; a failed write
 * is reported on stderr and not an error). *built (may be NULL): which. */
czk_status czk_pce_cache_get(czk_pce **out, const char *path, const char *key, czk_pce_build_fn build,
                             void *build_ctx, czk_pce_progress_fn progress, void *pctx, int *built) CZK_WUR;

/* One partition's witness (input, aux: sized from the PCE) and a/b/c, made
 * once and reused across partitions. The driver's witness-only synthesis
 * fills the witness; czk_pce_work_eval computes a, b, c over it. */
typedef struct czk_pce_work czk_pce_work;
czk_status czk_pce_work_create(czk_pce_work **out, const czk_pce *p) CZK_WUR;
void czk_pce_work_destroy(czk_pce_work *w);
/* Allocate (and map) a, b, c now (3 x rows x 32 bytes; the first eval does
 * it otherwise). */
czk_status czk_pce_work_reserve(czk_pce_work *w, int threads) CZK_WUR;
/* a, b, c = A.w, B.w, C.w over the workspace's witness; *out borrows the
 * vectors and the PCE's densities until the next call or destroy. */
czk_status czk_pce_work_eval(czk_pce_work *w, int threads, czk_cs_assignment *out) CZK_WUR;
/* The last eval's vectors against ref (a PROVE synthesis of partition k),
 * bit for bit: input, aux, a, b, c, the three densities and their
 * popcounts; CZK_ERR_INTERNAL naming the first differing vector and index. */
czk_status czk_pce_work_compare(const czk_pce_work *w, const czk_cs_assignment *ref, uint32_t k) CZK_WUR;
/* A PROVE synthesis that hands its rows out window by window:
 * rows(rows_ctx, row0, row1, a, b, c) for consecutive windows in increasing
 * order; input / aux (n_input / n_aux values) and dens[0..2] (A-aux,
 * B-input, B-aux bitmaps, zeroed) filled as it goes. */
typedef czk_status (*czk_pce_rows_fn)(void *ctx, uint64_t row0, uint64_t row1, const czk_fr *a, const czk_fr *b,
                                      const czk_fr *c);
typedef czk_status (*czk_pce_stream_fn)(void *ctx, czk_fr *input, size_t n_input, czk_fr *aux, size_t n_aux,
                                        uint64_t *dens[3], czk_pce_rows_fn rows, void *rows_ctx);
/* The workspace's witness (a, b, c not needed) against such a synthesis,
 * each window compared with the PCE's evaluation of the same rows: for
 * shapes where two full assignments do not fit in memory. Errors as
 * czk_pce_work_compare. czk_pce_work_compare_stream_bytes: what it
 * allocates, for a synthesis of window_rows rows per window. */
czk_status czk_pce_work_compare_stream(const czk_pce_work *w, czk_pce_stream_fn stream, void *stream_ctx, uint32_t k,
                                       int threads) CZK_WUR;
size_t czk_pce_work_compare_stream_bytes(const czk_pce_work *w, uint64_t window_rows);

/* ---- the PoRep partition circuit ----------------------------------------- */

/* Bumped whenever the circuit or the PCE layout changes (cache key). */
#define CZK_PCE_POREP_VERSION "czk-pce-porep-2"

/* The shape's matrices themselves (build, cache, path) are every kind's:
 * czk_kind_pce_get (czk/kind.h) with czk_kind_porep. */

/* a*b = c on every row of an assignment; CZK_ERR_UNSATISFIED naming the
 * first failing row. threads 0: czk_threads(). */
czk_status czk_pce_check(const czk_cs_assignment *w, int threads) CZK_WUR;

/* Witness-only synthesis + evaluation of partition k. The workspace holds the
 * witness (input, aux) and a/b/c (sized once, reused across calls); the
 * witness is synthesized with the challenges on `threads` threads (SHA-256
 * computed on words; src/pce/README.md); the assignment borrows the vectors
 * and the PCE's densities (valid until the next call / destroy) and equals
 * the PROVE backend's bit for bit. */
typedef struct czk_pce_porep_work czk_pce_porep_work;
typedef struct czk_pce_timings {
    double witness_s; /* witness-only synthesis */
    double eval_s;    /* a, b, c = A.w, B.w, C.w */
    double witness_cpu_s, eval_cpu_s; /* process CPU time (all threads) of each */
} czk_pce_timings;
czk_status czk_pce_porep_work_create(czk_pce_porep_work **out, const czk_pce *p,
                                     const czk_fc_shape *shape) CZK_WUR;
void czk_pce_porep_work_destroy(czk_pce_porep_work *w);
/* Allocate (and map) a, b, c now rather than in the first
 * czk_pce_porep_synthesize (3 x rows x 32 bytes; not needed by
 * czk_pce_porep_witness + czk_pce_eval_range streaming). */
czk_status czk_pce_porep_work_reserve(czk_pce_porep_work *w, int threads) CZK_WUR;
czk_status czk_pce_porep_synthesize(czk_pce_porep_work *w, const czk_fc_c1 *c1, uint32_t k, int threads,
                                    czk_cs_assignment *out, czk_pce_timings *t) CZK_WUR;
/* Only the witness (input, aux borrowed from the workspace), synthesized
 * with the challenges split across the workspace's threads (default 0:
 * czk_threads(); czk_pce_porep_synthesize uses its own `threads`), values
 * written in place: bit for bit the sequential WITNESS backend's. */
void czk_pce_porep_work_set_threads(czk_pce_porep_work *w, int threads);
czk_status czk_pce_porep_witness(czk_pce_porep_work *w, const czk_fc_c1 *c1, uint32_t k,
                                 const czk_fr **input, size_t *n_input, const czk_fr **aux,
                                 size_t *n_aux) CZK_WUR;

/* Compare the workspace's last synthesis of partition k with the PROVE
 * synthesis of the same partition (the parallel prover's backend), bit for
 * bit: input, aux, a, b, c, the three densities and their popcounts.
 * streamed 0: the whole PROVE assignment at once, against the a, b, c of
 * czk_pce_porep_synthesize. streamed 1: the PROVE synthesis window by window
 * (threads challenges at a time), each window against the PCE's evaluation
 * of the same rows on the workspace's witness (czk_pce_porep_witness is
 * enough): for shapes where two full assignments do not fit in memory.
 * CZK_ERR_INTERNAL naming the first differing vector and index otherwise.
 * czk_pce_porep_validate_bytes: the memory it allocates. */
czk_status czk_pce_porep_validate(czk_pce_porep_work *w, const czk_fc_c1 *c1, uint32_t k, int threads,
                                  int streamed) CZK_WUR;
size_t czk_pce_porep_validate_bytes(const czk_pce_porep_work *w, int streamed, int threads);

#ifdef __cplusplus
}
#endif
#endif
