/* czk — Groth16 over BLS12-381 as bellperson computes it (docs/groth16.md).
 *
 * Parameters (the proving key) and the verifying key use bellperson's .params
 * layout: all points uncompressed (G1 96 bytes, G2 192 bytes), counts as u32
 * big-endian, no padding:
 *
 *   vk:     alpha_g1, beta_g1, beta_g2, gamma_g2, delta_g1, delta_g2,
 *           u32 n_ic, ic[n_ic] (G1)
 *   params: vk, then u32 + h[] (G1, m-1), u32 + l[] (G1, one per aux variable),
 *           u32 + a[] (G1), u32 + b_g1[] (G1), u32 + b_g2[] (G2)
 *
 * The a / b queries hold only the non-identity entries: a = all inputs, then
 * the aux variables whose A column is non-zero; b = the inputs whose B column
 * is non-zero, then such aux variables. The prover's density bitmaps select
 * the matching scalars (czk_cs_assignment).
 *
 * Proof: A (G1) || B (G2) || C (G1), compressed: 192 bytes.
 */
#ifndef CZK_GROTH16_H
#define CZK_GROTH16_H

#include "czk/cs.h"
#include "czk/ec.h"
#include "czk/ntt.h"
#include "czk/pairing.h"
#include "czk/rand.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CZK_GROTH16_PROOF_BYTES 192

typedef struct czk_groth16_vk {
    czk_g1_affine alpha_g1, beta_g1;
    czk_g2_affine beta_g2, gamma_g2;
    czk_g1_affine delta_g1;
    czk_g2_affine delta_g2;
    size_t n_ic; /* number of public inputs including ONE */
    czk_g1_affine *ic;
} czk_groth16_vk;

typedef struct czk_groth16_params {
    czk_groth16_vk vk;
    size_t n_h, n_l, n_a, n_b_g1, n_b_g2;
    czk_g1_affine *h, *l, *a, *b_g1;
    czk_g2_affine *b_g2;
    /* Set by czk's readers and setup: h, l, a, b_g1 and b_g2 are czk's big
     * buffers (2 MiB-aligned mappings, huge pages where the kernel allows),
     * which czk_groth16_params_clear releases as such. Leave it 0 when
     * filling the sections with malloc yourself. */
    int big_sections;
    /* Non-NULL: the parameters are left on disk (czk_groth16_params_open_streamed):
     * vk and the counts are set, the sections are NULL, and every prover pass
     * streams them from the file. */
    struct czk_groth16_params_file *file;
} czk_groth16_params;

typedef struct czk_groth16_proof {
    czk_g1_affine a;
    czk_g2_affine b;
    czk_g1_affine c;
} czk_groth16_proof;

/* Verifying key prepared for repeated verification (borrows vk: keep the
 * czk_groth16_vk alive while the pvk is used). */
typedef struct czk_groth16_pvk {
    const czk_groth16_vk *vk;
    czk_fp12 alpha_beta; /* e(alpha, beta) */
    czk_g2_affine neg_gamma_g2, neg_delta_g2;
    czk_g2_prepared neg_gamma_prep, neg_delta_prep;
} czk_groth16_pvk;

/* ---- files ---------------------------------------------------------------- */

/* How a .params file is validated.
 *
 * FULL: every point is decoded (flags, x < p, on the curve), checked to lie
 *   in the prime-order subgroup (Scott's endomorphism tests) and not to be
 *   the identity; section lengths are checked against the file size and
 *   each other. Threaded; about 1k Fp multiplications per point. After a
 *   successful FULL validation a sidecar "<file>.czkcheck" is recorded
 *   (unless no_record): format version, file size, mtime and the file's
 *   checksum (SHA-256 over 32768-point blocks, see src/groth16/README.md).
 * PINNED (the default): if the sidecar exists, matches the file's size and
 *   mtime, and the checksum of the bytes read equals the recorded one, the
 *   points are decoded with on-curve checks only (the subgroup checks were
 *   done on these exact bytes before). Otherwise (no sidecar, stale,
 *   malformed, or checksum mismatch) FULL runs and the sidecar is
 *   re-recorded; czk_groth16_read_info says which ran and why.
 * CURVE: on the curve and not the identity; no subgroup check, no
 *   checksum. Only for files this process wrote itself. */
typedef enum czk_groth16_check {
    CZK_GROTH16_CHECK_FULL = 0,
    CZK_GROTH16_CHECK_CURVE = 1,
    CZK_GROTH16_CHECK_PINNED = 2,
} czk_groth16_check;

#define CZK_GROTH16_CHECK_DEFAULT CZK_GROTH16_CHECK_PINNED
#define CZK_GROTH16_DIGEST_LEN 32

/* "full", "pinned", "curve" */
const char *czk_groth16_check_name(czk_groth16_check c);
czk_status czk_groth16_check_parse(czk_groth16_check *out, const char *s) CZK_WUR;

typedef struct czk_groth16_read_opts {
    czk_groth16_check check;
    int threads;         /* 0: czk_threads() */
    int no_record;       /* 1: never write the sidecar */
    const char *sidecar; /* NULL: "<path>.czkcheck" */
} czk_groth16_read_opts;

typedef struct czk_groth16_read_info {
    czk_groth16_check ran; /* what validated the points: FULL, PINNED or CURVE */
    char why[480];         /* PINNED asked, FULL ran: why the sidecar was not used */
    int recorded;          /* 1: the sidecar was (re)written */
    char record_error[240];
    uint64_t file_bytes;
    uint8_t digest[CZK_GROTH16_DIGEST_LEN]; /* the file's checksum, SHA-256 (not computed for CURVE) */
    double decode_s;       /* read + checksum + decode (+ fused subgroup checks) */
    double subgroup_s;     /* separate subgroup pass after a checksum mismatch */
    double total_s;
} czk_groth16_read_info;

/* Read a .params file. Errors name the section ("h", "l", "a", "b_g1",
 * "b_g2", "vk.ic", "vk.alpha_g1" ...), the index of a bad point and its
 * byte offset, in every mode; the first failing point in file order is
 * reported (decoding failures before subgroup failures). Lengths are
 * checked against the file size before anything is allocated. The file is
 * read with pread (a concurrent truncation is an error, not a crash) and a
 * change of size or mtime during the read is an error. opts NULL: PINNED
 * with defaults; info may be NULL. */
czk_status czk_groth16_params_read_ex(czk_groth16_params *p, const char *path,
                                      const czk_groth16_read_opts *opts,
                                      czk_groth16_read_info *info) CZK_WUR;
/* czk_groth16_params_read_ex with only the check mode set. */
czk_status czk_groth16_params_read(czk_groth16_params *p, const char *path,
                                   czk_groth16_check check) CZK_WUR;
/* One line saying which validation ran, how long it took, and why a
 * pinned read fell back to full validation. */
void czk_groth16_read_info_describe(char *out, size_t n, const czk_groth16_read_info *info);
/* The default sidecar path of a .params file: "<path>.czkcheck". */
void czk_groth16_params_sidecar_path(char *out, size_t n, const char *path);
/* Write atomically (a locked temporary beside path, fsync'ed, renamed; the
 * free space checked first; src/common/README.md, "Files czk writes"). */
czk_status czk_groth16_params_write(const char *path, const czk_groth16_params *p) CZK_WUR;
/* Write as above, then record the sidecar for the bytes written, so that the
 * first PINNED read skips the subgroup checks. Only for parameters whose
 * points are known to be valid: made by czk_groth16_setup in this process,
 * or read with FULL / PINNED validation. A later PINNED read still verifies
 * the checksum of what is on disk. */
czk_status czk_groth16_params_write_pinned(const char *path, const czk_groth16_params *p) CZK_WUR;
/* czk_groth16_params_write_pinned, then the verifying key to vk_path: an
 * old vk is removed just before the new .params is renamed into place, so
 * a crash leaves no new .params beside an old .vk. */
czk_status czk_groth16_params_write_pair(const char *params_path, const char *vk_path,
                                         const czk_groth16_params *p) CZK_WUR;
void czk_groth16_params_clear(czk_groth16_params *p);

czk_status czk_groth16_vk_read(czk_groth16_vk *vk, const char *path) CZK_WUR;
czk_status czk_groth16_vk_write(const char *path, const czk_groth16_vk *vk) CZK_WUR;
/* Decode from / encode to memory (vk layout above). *used receives the bytes
 * consumed. */
czk_status czk_groth16_vk_decode(czk_groth16_vk *vk, const uint8_t *buf, size_t len,
                                 size_t *used) CZK_WUR;
size_t czk_groth16_vk_encoded_size(const czk_groth16_vk *vk);
void czk_groth16_vk_encode(uint8_t *out, const czk_groth16_vk *vk);
void czk_groth16_vk_clear(czk_groth16_vk *vk);

/* Check that parameters fit a circuit: ic count = inputs, l count = aux,
 * h count = m - 1 for m = next power of two >= constraints (incl. input
 * constraints), a / b counts equal the density popcounts. */
czk_status czk_groth16_params_match(const czk_groth16_params *p, const czk_cs_assignment *w) CZK_WUR;

/* ---- proofs --------------------------------------------------------------- */

void czk_groth16_proof_encode(uint8_t out[CZK_GROTH16_PROOF_BYTES], const czk_groth16_proof *pr);
/* Rejects malformed encodings, off-curve and non-subgroup points. */
czk_status czk_groth16_proof_decode(czk_groth16_proof *pr,
                                    const uint8_t in[CZK_GROTH16_PROOF_BYTES]) CZK_WUR;

/* ---- setup ---------------------------------------------------------------- */

typedef struct czk_groth16_setup_opts {
    int use_seed;       /* 1: toxic waste from `seed` (tests only); 0: getrandom */
    uint64_t seed;
    int threads;        /* 0: czk_threads() */
    void (*progress)(void *ctx, const char *stage, double fraction);
    void *progress_ctx;
} czk_groth16_setup_opts;

/* Generate parameters for the circuit whose shape is A, B, C (CSR over
 * [inputs | aux], from the SHAPE backend AFTER czk_cs_finalize, i.e. with
 * the input constraints appended). n_inputs includes ONE. */
czk_status czk_groth16_setup(czk_groth16_params *out, const czk_csr *a, const czk_csr *b,
                             const czk_csr *c, size_t n_inputs,
                             const czk_groth16_setup_opts *opts) CZK_WUR;

/* A circuit given to the streamed setup by its matrices' column sums, in
 * whatever form the caller holds them (CSR, a PCE file...). */
typedef struct czk_groth16_setup_circuit {
    size_t n_rows;   /* constraints, bellperson's input rows included */
    size_t n_cols;   /* variables: the inputs (ONE first), then aux */
    size_t n_inputs; /* ONE included */
    /* acc[col] += sum over rows r in [row0, row1) of M[r][col] * lag[r - row0],
     * for matrix 0 (A), 1 (B) or 2 (C); acc has n_cols entries. The setup
     * walks the rows in chunks of 2^20 (the weights of a chunk are made when
     * it is reached, so no vector of n_rows is held). */
    czk_status (*columns)(void *ctx, int matrix, czk_fr *acc, const czk_fr *lag, size_t row0, size_t row1,
                          int threads);
    void *ctx;
} czk_groth16_setup_circuit;

/* The parameters czk_groth16_setup would make (the same bytes for the same
 * seed), written to params_path section by section as they are computed,
 * with the checksum sidecar, and the verifying key to vk_path. Memory: one
 * vector of n_cols scalars, chunks of 2^20 rows' weights and points and the
 * fixed-base tables, whatever the size of the parameters (a 32GiB PoRep
 * partition: ~4.5 GB for 47 GB of parameters). Written under a temporary
 * name and renamed: on failure nothing is left at params_path. */
czk_status czk_groth16_setup_write(const char *params_path, const char *vk_path, const czk_groth16_setup_circuit *c,
                                   const czk_groth16_setup_opts *opts) CZK_WUR;

/* ---- prove ---------------------------------------------------------------- */

typedef struct czk_groth16_timings {
    double h_s;      /* NTTs computing H */
    double msm_h_s, msm_l_s, msm_a_s, msm_b_g1_s, msm_b_g2_s;
    double total_s;
} czk_groth16_timings;

typedef struct czk_groth16_prove_opts {
    int threads;               /* 0: czk_threads() */
    czk_rng *rng;              /* NULL: r, s from getrandom (the only choice for real proofs) */
    czk_groth16_timings *timings; /* optional; for a batch, the pass's totals */
} czk_groth16_prove_opts;

/* Most witnesses of one czk_groth16_prove_batch call. */
#define CZK_GROTH16_MAX_BATCH 64

/* Batched prover: out[i] = a proof of witness w[i], for n <=
 * CZK_GROTH16_MAX_BATCH finalized PROVE-backend assignments (input
 * constraints appended) of one circuit that all match p
 * (czk_groth16_params_match; checked, CZK_ERR_INVALID_ARG naming the
 * witness). One NTT domain serves all of them, and each query (h, l, a,
 * b_g1, and b_g2 on its own thread beside the G1 work) is one
 * multi-scalar-set MSM (czk_msm_g1_var_multi / _g2_var_multi) over the n
 * witnesses' scalars when their density masks are equal (always, for one
 * circuit); otherwise, and for n = 1, one MSM per witness. r, s are drawn
 * per proof in witness order (r then s), as n calls of one proof each on
 * the same stream draw them: with the same rng the proofs are equal bit for
 * bit. w is not modified. n = 0 does nothing. Variable time in the witness
 * (the MSMs are _var); constant time in r, s. */
czk_status czk_groth16_prove_batch(czk_groth16_proof *out, const czk_groth16_params *p,
                                   const czk_cs_assignment *const *w, size_t n,
                                   const czk_groth16_prove_opts *opts) CZK_WUR;

/* czk_groth16_prove_batch of the one witness w. */
czk_status czk_groth16_prove(czk_groth16_proof *out, const czk_groth16_params *p,
                             const czk_cs_assignment *w,
                             const czk_groth16_prove_opts *opts) CZK_WUR;

/* Bytes czk_groth16_prove_batch allocates per witness of a circuit of sizes
 * s (p may be NULL: sized from s) with `threads` threads: padded a/b/c,
 * NTT domain, the G1 and G2 MSM scratch. With batch > 1: the largest
 * per-witness share of a k-witness pass, k <= batch ((k + 3) m scalars and
 * the k-set scratch, divided by k); batch = 1 is one proof's footprint. */
uint64_t czk_groth16_prove_bytes(const czk_cs_sizes *s, const czk_groth16_params *p, int threads, int batch);
/* (For streamed parameters, czk_groth16_prove_stream_bytes: a pass proves one witness.) */

/* ---- proving with the parameters streamed from disk -----------------------
 * For parameters that do not fit in memory beside the witness (a 32GiB PoRep
 * partition's are 47 GB): the file is read section by section in chunks of
 * whole 32768-point blocks, each chunk's MSM added to its section's sum, so
 * that the points never reside; H is computed in two vectors of m (a, b, c
 * one at a time, from fill or from the witness). The proof is the one
 * czk_groth16_prove makes with the same r and s, bit for bit. The checksum
 * is compared with the sidecar at the end (PINNED; a mismatch is an error
 * and no proof is returned); without a usable sidecar every point's
 * subgroup is checked as it is read and the sidecar is recorded. The
 * caller verifies the proof (vk_out: the file's verifying key, cleared
 * with czk_groth16_vk_clear; may be NULL). */
typedef struct czk_groth16_stream_stats {
    double read_s;                 /* reading, hashing and decoding points */
    uint64_t bytes_read;           /* bytes of points read */
    size_t chunk_points_g1, chunk_points_g2;
} czk_groth16_stream_stats;

typedef struct czk_groth16_stream_opts {
    int threads;                  /* 0: czk_threads() */
    czk_rng *rng;                 /* NULL: getrandom */
    czk_groth16_check check;      /* set it: 0 is FULL (opts NULL: PINNED) */
    uint64_t chunk_bytes;         /* a chunk's points, scalars and MSM scratch; 0: 1 GiB */
    size_t chunk_points;          /* tests: points per chunk (rounded up to whole blocks); 0: from chunk_bytes */
    czk_ntt_fill_fn fill;         /* a, b, c for H; NULL: the witness's a, b, c */
    void *fill_ctx;
    /* "parameters streamed", fraction of the points read; may be NULL */
    void (*progress)(void *ctx, const char *stage, double fraction);
    void *progress_ctx;
    czk_groth16_timings *timings; /* msm_* include reading their section */
    czk_groth16_stream_stats *stats;
    czk_groth16_read_info *info;  /* the validation that ran */
} czk_groth16_stream_opts;

/* w: a finalized assignment (a, b, c may be NULL when fill is given);
 * errors name the file, section, point and byte offset, or the stage. */
czk_status czk_groth16_prove_stream(czk_groth16_proof *out, czk_groth16_vk *vk_out, const char *path,
                                    const czk_cs_assignment *w, const czk_groth16_stream_opts *opts) CZK_WUR;

/* Parameters left on disk, as one parameter set among others (the engine
 * proves with them like resident ones): out receives the file's verifying
 * key and section counts (the header and the key are read and checked; no
 * point is), its sections stay NULL, and each prover pass streams them from
 * the file with czk_groth16_prove_streamed. check is how every pass
 * validates what it reads (PINNED: the checksum against the sidecar at the
 * end of the pass; FULL: every point's subgroup; CURVE: neither);
 * chunk_bytes a pass's chunk (0: 1 GiB). czk_groth16_params_clear releases
 * it. Errors name the file. */
czk_status czk_groth16_params_open_streamed(czk_groth16_params *out, const char *path, czk_groth16_check check,
                                            uint64_t chunk_bytes, int threads) CZK_WUR;
/* 1 when p's sections are left on disk. */
int czk_groth16_params_streamed(const czk_groth16_params *p);
/* The file of streamed parameters (NULL for resident ones). */
const char *czk_groth16_params_path(const czk_groth16_params *p);
/* Bytes a streamed prover pass holds for a witness of sizes s: H's two
 * vectors of m scalars and the NTT domain's twiddles, then one chunk
 * (chunk_bytes, 0: 1 GiB) and the readers' buffers. */
uint64_t czk_groth16_prove_stream_bytes(const czk_cs_sizes *s, uint64_t chunk_bytes, int threads);
/* One proof with streamed parameters p (czk_groth16_prove_stream on p's
 * file with p's check and chunk; opts' own check and chunk_bytes are
 * ignored). The proof is checked against p's verifying key by the caller. */
czk_status czk_groth16_prove_streamed(czk_groth16_proof *out, const czk_groth16_params *p, const czk_cs_assignment *w,
                                      const czk_groth16_stream_opts *opts) CZK_WUR;

/* ---- verify --------------------------------------------------------------- */

czk_status czk_groth16_pvk_prepare(czk_groth16_pvk *pvk, const czk_groth16_vk *vk) CZK_WUR;
/* inputs: the public inputs WITHOUT the leading ONE (n = vk.n_ic - 1).
 * Returns CZK_OK if valid, CZK_ERR_VERIFY if not, CZK_ERR_INVALID_ARG for a
 * wrong input count. */
czk_status czk_groth16_verify(const czk_groth16_pvk *pvk, const czk_groth16_proof *pr,
                              const czk_fr *inputs, size_t n) CZK_WUR;
/* Batch: one multi-pairing over a random linear combination of the proofs'
 * equations. inputs: n_proofs rows of (vk.n_ic - 1) values. rng NULL: getrandom. */
czk_status czk_groth16_verify_batch(const czk_groth16_pvk *pvk, const czk_groth16_proof *prs,
                                    size_t n_proofs, const czk_fr *inputs, size_t n_per_proof,
                                    czk_rng *rng) CZK_WUR;

#ifdef __cplusplus
}
#endif
#endif
