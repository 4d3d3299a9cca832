/* The Groth16 prover's shared skeleton: what the bellperson-semantics prover
 * (prove.c) and the snarkjs-semantics prover (src/io/circom_prove.c) have in
 * common. Not installed.
 *
 * For each proof i of a run (one circuit, one key):
 *
 *   r_i, s_i         uniform non-zero scalars, r then s, proof after proof
 *   a, b, c          the constraint evaluations, zero-padded to m = 2^log_m
 *   h                the H step on the size-m domain (its root family and
 *                    coset are the caller's: bellperson's or snarkjs')
 *   sums             the MSMs over the key's queries (the caller's)
 *   A, B, C          czk__groth16_assemble
 *
 * The G2 sums run on their own thread beside the H step and the G1 sums
 * (czk__groth16_g2_threads of the threads, the rest for G1), or inline
 * first on all threads when the caller asks so.
 */
#ifndef CZK_GROTH16_INTERNAL_H
#define CZK_GROTH16_INTERNAL_H

#include "czk/groth16.h"
#include "czk/ntt.h"

/* The key points a proof is built from; any may be the identity. */
typedef struct czk__groth16_keys {
    czk_g1_affine alpha_g1, beta_g1, delta_g1;
    czk_g2_affine beta_g2, delta_g2;
} czk__groth16_keys;

/* One proof's MSM sums over the witness w. */
typedef struct czk__groth16_sums {
    czk_g1_jac a;  /* sum_i w_i A_i (G1) */
    czk_g1_jac b1; /* sum_i w_i B_i (G1) */
    czk_g2_jac b2; /* sum_i w_i B_i (G2) */
    czk_g1_jac c;  /* sum over the private w_i of w_i L_i, plus sum_j h_j H_j */
} czk__groth16_sums;

/* The proof from its sums and blinding scalars r, s:
 *   A  = alpha + a + r delta                  (G1)
 *   B  = beta + b2 + s delta                  (G2)
 *   B1 = beta + b1 + s delta                  (G1)
 *   C  = c + s A + r B1 - r s delta           (G1)
 * Constant time in r and s. */
void czk__groth16_assemble(czk_groth16_proof *out, const czk__groth16_keys *k, const czk__groth16_sums *sums,
                           const czk_fr *r, const czk_fr *s);

/* rs[2i] = r, rs[2i+1] = s of proof i < n: uniform non-zero, drawn r then s,
 * proof after proof (what n one-proof runs on the stream draw); rng NULL:
 * getrandom. */
czk_status czk__groth16_draw_rs(czk_fr *rs, size_t n, czk_rng *rng) CZK_WUR;

/* Threads of the G2 thread when `threads` are split G2 beside G1: a third
 * (at least one); G1 keeps the rest, or all of them on 2 threads or fewer. */
int czk__groth16_g2_threads(int threads);
int czk__groth16_g1_threads(int threads);

/* A prover run: what differs between the semantics. The callbacks get ctx,
 * report errors with czk_error and return its status. */
typedef struct czk__groth16_run {
    size_t n;            /* proofs, 1 .. CZK_GROTH16_MAX_BATCH */
    unsigned log_m;      /* H domain of m = 2^log_m points */
    czk_ntt_roots roots; /* its root family */
    /* The H step on the domain (czk_ntt_groth16_h, czk_ntt_snarkjs_h): h
     * from a, b, c, left in a; b and c are scratch. */
    czk_status (*h_step)(const czk_ntt_domain *d, czk_fr *a, czk_fr *b, czk_fr *c, size_t m);
    /* Proof i's a, b, c: m values each, zero past the last constraint. */
    czk_status (*abc)(void *ctx, size_t i, czk_fr *a, czk_fr *b, czk_fr *c, size_t m, int threads);
    /* sums[i].a, .b1, .c of every proof; proof i's m h scalars are at h + i m. */
    czk_status (*g1)(void *ctx, czk__groth16_sums *sums, const czk_fr *h, size_t m, int threads);
    /* sums[i].b2 of every proof. */
    czk_status (*g2)(void *ctx, czk__groth16_sums *sums, int threads);
    int g2_inline;       /* 1: g2 first, on all threads; 0: on its own thread beside the rest */
    void *ctx;
    const czk__groth16_keys *keys;
} czk__groth16_run;

/* Wall seconds of a run's parts (summed over the proofs). */
typedef struct czk__groth16_run_times {
    double abc_s, h_s, g1_s, g2_s;
} czk__groth16_run_times;

/* out[i] = the proof of run proof i. threads >= 1. times may be NULL. On
 * error out is not written; the message names the part that failed. */
czk_status czk__groth16_prove_run(czk_groth16_proof *out, const czk__groth16_run *run, czk_rng *rng, int threads,
                                  czk__groth16_run_times *times) CZK_WUR;

/* 1 if czk_groth16_prove_batch runs one multi-scalar-set MSM per query for
 * these witnesses (n > 1 and equal density masks), 0 if one MSM per
 * witness. */
int czk__groth16_batch_is_multi(const czk_cs_assignment *const *w, size_t n);

/* ---- a .params file written section by section (params.c) ----------------------------
 * For a setup whose points do not fit in memory: the verifying key, then
 * each section's count and its points in order (h, l, a, b_g1, b_g2), chunk
 * by chunk. The bytes go through czk's atomic writer (common/fileio.h: a
 * locked "<path>.tmp.<pid>"), are hashed block by block as a pinned read
 * hashes them, and on commit are fsync'ed and renamed into place, then the
 * checksum sidecar is recorded (the points are multiples of the generators:
 * setup output) and, when vk_path is not NULL, the verifying key written
 * there; an old vk is removed just before the rename, so a crash never
 * leaves a new .params beside an old .vk. need: the file's
 * size when known (czk__params_file_bytes), checked against the free space
 * before anything is written; 0: no check. abort removes the temporary. */
typedef struct czk__params_writer czk__params_writer;
czk_status czk__params_writer_open(czk__params_writer **out, const char *path, const char *vk_path,
                                   const czk_groth16_vk *vk, uint64_t need) CZK_WUR;
/* Bytes of a .params file with n_ic IC points and n[0..4] points in h, l,
 * a, b_g1, b_g2. */
uint64_t czk__params_file_bytes(size_t n_ic, const size_t n[5]);
/* Start section sec (0 h, 1 l, 2 a, 3 b_g1, 4 b_g2; in this order) of n points. */
czk_status czk__params_writer_section(czk__params_writer *w, int sec, size_t n) CZK_WUR;
/* The next n points of the current section (G1 sections / b_g2). */
czk_status czk__params_writer_g1(czk__params_writer *w, const czk_g1_affine *pts, size_t n) CZK_WUR;
czk_status czk__params_writer_g2(czk__params_writer *w, const czk_g2_affine *pts, size_t n) CZK_WUR;
/* Every section complete: sync, rename, record the sidecar, write the vk; w is freed. */
czk_status czk__params_writer_commit(czk__params_writer *w) CZK_WUR;
/* Give up: the temporary file is removed, nothing is written at path; w is freed. */
void czk__params_writer_abort(czk__params_writer *w);

/* ---- a .params file read section by section (params.c) --------------------------------
 * For a prover whose parameters do not fit in memory: open reads and checks
 * the layout (as czk_groth16_params_read_ex does) and the verifying key; then
 * the sections' points are read in file order (h, l, a, b_g1, b_g2), each call
 * whole 32768-point blocks of one section (the last block of a section may
 * be short; an empty section is one call with k = 0), decoded in parallel
 * into dst with the check mode's checks, each block hashed as a pinned read
 * hashes it. PINNED with a fresh sidecar decodes with on-curve checks and
 * finish compares the checksum: a mismatch is an error (whatever was
 * computed from the points must be discarded). PINNED without a usable
 * sidecar, and FULL, check every point's subgroup as it is read and finish
 * records the sidecar. Errors name the file, section, point and byte offset. */
/* What czk_groth16_params_open_streamed keeps: the file, how each pass
 * validates it, a pass's chunk. */
struct czk_groth16_params_file {
    char *path;
    czk_groth16_check check;
    uint64_t chunk_bytes;
    uint64_t file_bytes;
};
/* The chunk bytes of streamed parameters p (0: the prover's default). */
uint64_t czk__params_file_chunk(const czk_groth16_params *p);

typedef struct czk__params_stream czk__params_stream;
czk_status czk__params_stream_open(czk__params_stream **out, const char *path, czk_groth16_check check,
                                   int threads) CZK_WUR;
const czk_groth16_vk *czk__params_stream_vk(const czk__params_stream *s);
/* Points per section: h, l, a, b_g1, b_g2. */
void czk__params_stream_counts(const czk__params_stream *s, size_t n[5]);
/* 1: the points are subgroup-checked as they are read (no usable sidecar). */
int czk__params_stream_full(const czk__params_stream *s);
/* Points [first, first + k) of section sec into dst (G1 or, for sec 4, G2
 * affine points); first is where the previous call of the section ended. */
czk_status czk__params_stream_next(czk__params_stream *s, int sec, size_t first, void *dst, size_t k) CZK_WUR;
/* Every block read: the file unchanged, the checksum compared (PINNED) or
 * recorded (FULL); info as czk_groth16_params_read_ex fills it. */
czk_status czk__params_stream_finish(czk__params_stream *s, czk_groth16_read_info *info) CZK_WUR;
void czk__params_stream_close(czk__params_stream *s);
/* Points per read block (the checksum's block). */
#define CZK__PARAMS_BLOCK_POINTS 32768

/* czk_groth16_params_match on counts: n_ic public inputs (with ONE), n[5]
 * points of h, l, a, b_g1, b_g2. */
czk_status czk__groth16_counts_match(size_t n_ic, const size_t n[5], const czk_cs_assignment *w) CZK_WUR;

#endif
