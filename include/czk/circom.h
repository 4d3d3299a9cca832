/* czk — circom / snarkjs interoperability (BLS12-381 only).
 *
 * Readers for circom's .r1cs and .wtns and snarkjs' Groth16 .zkey, a prover
 * with snarkjs' semantics (its proofs verify with `snarkjs groth16 verify`),
 * a verifier for snarkjs' proof.json / verification_key.json / public.json,
 * and the JSON writers. File layouts: docs/circom.md; algorithms: src/io/README.md.
 *
 * All readers load the whole file, scan the section table (any order), check
 * every length, field element (< modulus) and point (on the curve; in the
 * prime-order subgroup unless CZK_CIRCOM_NO_SUBGROUP_CHECK), and reject other
 * curves (BN254: n8q = 32 or a different prime) with CZK_ERR_UNSUPPORTED. A
 * malformed file gives CZK_ERR_FORMAT (or a point / canonical-form status)
 * whose message names the file, the section and the byte offset. Parsing
 * never reads outside the buffer, whatever it holds.
 *
 * Field elements returned are czk_fr in Montgomery form; points are affine,
 * Montgomery form, inf = 1 for the all-zero encoding.
 */
#ifndef CZK_CIRCOM_H
#define CZK_CIRCOM_H

#include "czk/common.h"
#include "czk/ec.h"
#include "czk/field.h"
#include "czk/groth16.h"
#include "czk/rand.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Reader flags. */
enum {
    /* Check points are on the curve but skip the prime-order subgroup check
     * (for files the caller produced or already checked; costs ~25 us per
     * G1 point otherwise). */
    CZK_CIRCOM_NO_SUBGROUP_CHECK = 1u << 0,
};

/* ---- .r1cs ---------------------------------------------------------------- */

/* Matrices in CSR form, one per A, B, C: the terms of constraint j are
 * wire[m][start[m][j] .. start[m][j+1]) with coefficients coef[m][...]. */
typedef struct czk_circom_r1cs {
    uint32_t n_wires, n_outputs, n_pub_inputs, n_prv_inputs, n_constraints;
    uint64_t n_labels;
    uint64_t *start[3];
    uint32_t *wire[3];
    czk_fr *coef[3];
    uint64_t *wire_label; /* n_wires label ids (section 3), NULL if absent */
} czk_circom_r1cs;

/* Parse an r1cs image (name is used in messages). *r is zeroed first and
 * cleared on failure. */
czk_status czk_circom_r1cs_parse(czk_circom_r1cs *r, const uint8_t *buf, size_t len,
                                 const char *name) CZK_WUR;
czk_status czk_circom_r1cs_read(czk_circom_r1cs *r, const char *path) CZK_WUR;
void czk_circom_r1cs_clear(czk_circom_r1cs *r);

/* Signal names from a circom .sym file: "labelId,varIdx,componentIdx,name"
 * lines; varIdx -1 (signals removed by the optimizer) are ignored. */
typedef struct czk_circom_sym {
    size_t n_wires;
    char **name; /* name[wire] or NULL */
} czk_circom_sym;

czk_status czk_circom_sym_read(czk_circom_sym *s, const char *path, size_t n_wires) CZK_WUR;
void czk_circom_sym_clear(czk_circom_sym *s);

/* Check <A_j,w> * <B_j,w> = <C_j,w> for every constraint j. On the first
 * failure: CZK_ERR_UNSATISFIED with a message naming the constraint index,
 * the three values and the wires involved (with their names when sym is
 * non-NULL). Threaded (OpenMP); reports the lowest failing index. */
czk_status czk_circom_r1cs_check(const czk_circom_r1cs *r, const czk_fr *w, size_t n_w,
                                 const czk_circom_sym *sym) CZK_WUR;

/* ---- .wtns ---------------------------------------------------------------- */

typedef struct czk_circom_wtns {
    size_t n;
    czk_fr *w; /* w[0] = 1 */
} czk_circom_wtns;

czk_status czk_circom_wtns_parse(czk_circom_wtns *w, const uint8_t *buf, size_t len,
                                 const char *name) CZK_WUR;
czk_status czk_circom_wtns_read(czk_circom_wtns *w, const char *path) CZK_WUR;
void czk_circom_wtns_clear(czk_circom_wtns *w);

/* ---- .zkey (Groth16) ------------------------------------------------------ */

typedef struct czk_circom_vk {
    uint32_t n_public;
    czk_g1_affine alpha1;
    czk_g2_affine beta2, gamma2, delta2;
    czk_g1_affine *ic; /* n_public + 1 */
} czk_circom_vk;

typedef struct czk_circom_zkey {
    uint32_t n_vars, n_public, domain_size;
    unsigned log_n;
    czk_g1_affine alpha1, beta1, delta1;
    czk_g2_affine beta2, gamma2, delta2;
    czk_g1_affine *ic; /* n_public + 1 */
    /* Coefficient section: n_coefs records (matrix 0 = A, 1 = B, row, signal,
     * value in Montgomery form, i.e. the plain coefficient). */
    size_t n_coefs;
    uint8_t *coef_matrix;
    uint32_t *coef_row, *coef_signal;
    czk_fr *coef_value;
    /* Sections 5-7 (A, B1, B2: one point per signal, many at infinity) are
     * kept compacted for the MSMs: only the finite points, in signal order,
     * with a density bitmap of n_vars bits (czk/msm.h) marking which signals
     * have one. n_a etc. count the finite points. */
    size_t n_a, n_b1, n_b2;
    uint64_t *a_density, *b1_density, *b2_density;
    czk_g1_affine *a, *b1;
    czk_g2_affine *b2;
    czk_g1_affine *c; /* n_vars - n_public - 1 (signals n_public+1 ..) */
    czk_g1_affine *h; /* domain_size */
} czk_circom_zkey;

czk_status czk_circom_zkey_parse(czk_circom_zkey *z, const uint8_t *buf, size_t len,
                                 const char *name, unsigned flags) CZK_WUR;
czk_status czk_circom_zkey_read(czk_circom_zkey *z, const char *path, unsigned flags) CZK_WUR;
/* Read a zkey validated as opts->check says (opts NULL: PINNED), with the
 * checksum sidecar "<path>.czkcheck" of .params files (czk/groth16.h):
 * FULL checks every point (canonical, on the curve, in the subgroup) and
 * then records the sidecar (unless opts->no_record): the file's size, mtime
 * and SHA-256 over 4 MiB blocks. PINNED skips the subgroup checks when the
 * sidecar matches the file's size and mtime and the checksum of the bytes
 * read equals the recorded one, and otherwise runs FULL. CURVE never checks
 * subgroups and never hashes. info (may be NULL) says which ran and why a
 * pinned read fell back (czk_groth16_read_info_describe prints it). A file
 * that changes while it is read is an error. */
czk_status czk_circom_zkey_read_ex(czk_circom_zkey *z, const char *path, const czk_groth16_read_opts *opts,
                                   czk_groth16_read_info *info) CZK_WUR;
/* Record the sidecar of a zkey file this process wrote (its points are
 * known to be in the subgroup): the next pinned read skips the subgroup
 * checks. */
czk_status czk_circom_zkey_pin(const char *path) CZK_WUR;
void czk_circom_zkey_clear(czk_circom_zkey *z);
/* The verifying key of a zkey (ic borrowed from z: keep z alive). */
void czk_circom_zkey_vk(czk_circom_vk *vk, const czk_circom_zkey *z);

/* Check that an r1cs and a zkey describe the same circuit shape (wires,
 * publics, domain) and that the zkey's A/B coefficient records equal the
 * r1cs' A/B rows term by term. */
czk_status czk_circom_zkey_match_r1cs(const czk_circom_zkey *z, const czk_circom_r1cs *r) CZK_WUR;

/* INSECURE Groth16 setup for benchmarks and tests: writes a snarkjs-compatible
 * .zkey for r (snarkjs' conventions, docs/circom.md) with tau, alpha, beta, delta
 * drawn from rng (anyone who knows the seed can forge proofs). For sizes whose
 * snarkjs powers-of-tau ceremony would take hours. The file is written
 * atomically, with its checksum sidecar (czk_circom_zkey_pin). */
czk_status czk_circom_zkey_setup_insecure(const char *path, const czk_circom_r1cs *r, czk_rng *rng) CZK_WUR;

/* ---- prover and verifier ---------------------------------------------------- */

/* Stages of czk_circom_prove, in order. */
typedef enum czk_circom_stage {
    CZK_CIRCOM_STAGE_AB = 0, /* a, b (and c = a b) from the coefficient section */
    CZK_CIRCOM_STAGE_H,      /* the six transforms and the pointwise step */
    CZK_CIRCOM_STAGE_MSM_A,  /* the A, B1, B2, C MSMs: 0/1 pre-pass + Pippenger */
    CZK_CIRCOM_STAGE_MSM_B1,
    CZK_CIRCOM_STAGE_MSM_B2,
    CZK_CIRCOM_STAGE_MSM_C,
    CZK_CIRCOM_STAGE_MSM_H,  /* dense Pippenger over the domain */
    CZK_CIRCOM_STAGE_FINISH, /* blinding, conversion to affine */
    CZK_CIRCOM_STAGE_TOTAL,
    CZK_CIRCOM_NSTAGES
} czk_circom_stage;

/* Short name of a stage ("a,b,c", "MSM H", ...; "?" outside the range). */
const char *czk_circom_stage_name(int stage);

/* Per-stage wall time and process CPU time (CLOCK_PROCESS_CPUTIME_ID: every
 * thread of the process, so CPU time of unrelated threads counts too), in
 * seconds. The stages run one after the other, each on all threads. */
typedef struct czk_circom_timings {
    double wall[CZK_CIRCOM_NSTAGES];
    double cpu[CZK_CIRCOM_NSTAGES];
    /* What the 0/1 pre-pass found in the A, B1, B2, C MSMs (summed over the
     * four): scalars skipped as 0, bases added plainly for scalar 1, and
     * the rest that went through Pippenger. */
    size_t n_zero, n_one, n_rest;
} czk_circom_timings;

/* Groth16 proof with snarkjs' semantics (docs/circom.md#snarkjs-prover):
 * w = n_w = z->n_vars witness values (w[0] = 1). rng supplies r and s (NULL:
 * getrandom). threads: 0 = czk_threads(). t may be NULL. The proof is NOT
 * checked here; see czk_circom_verify. Variable time in the witness, like
 * the MSMs (czk/msm.h): the A, B1, B2 and C MSMs skip witness values 0 and
 * add the bases of values 1 and -1 without Pippenger (src/io/README.md). */
czk_status czk_circom_prove(czk_groth16_proof *out, const czk_circom_zkey *z, const czk_fr *w,
                            size_t n_w, czk_rng *rng, int threads,
                            czk_circom_timings *t) CZK_WUR;

/* Verify a proof against pub[0 .. vk->n_public). Returns CZK_OK, or
 * CZK_ERR_VERIFY (message says so) when the pairing equation fails;
 * CZK_ERR_INVALID_ARG when n_pub != vk->n_public. Points of the proof must
 * already be validated (the JSON reader does that). */
czk_status czk_circom_verify(const czk_circom_vk *vk, const czk_groth16_proof *pr,
                             const czk_fr *pub, size_t n_pub) CZK_WUR;

/* ---- snarkjs JSON ------------------------------------------------------------ */

/* proof.json: decimal affine coordinates written projectively with z = 1 (or
 * z = 0 and coordinates 0 1 0 for infinity, as snarkjs writes it). The reader
 * checks protocol "groth16", curve "bls12381", canonical coordinates, on-curve
 * and subgroup membership. */
czk_status czk_circom_proof_write_json(const char *path, const czk_groth16_proof *pr) CZK_WUR;
czk_status czk_circom_proof_read_json(czk_groth16_proof *pr, const char *path) CZK_WUR;
/* public.json: array of decimal strings; the reader rejects values >= r. */
czk_status czk_circom_public_write_json(const char *path, const czk_fr *pub, size_t n) CZK_WUR;
czk_status czk_circom_public_read_json(czk_fr **pub, size_t *n, const char *path) CZK_WUR;
/* verification_key.json (the reader allocates vk->ic; free with
 * czk_circom_vk_clear). */
czk_status czk_circom_vk_read_json(czk_circom_vk *vk, const char *path) CZK_WUR;
void czk_circom_vk_clear(czk_circom_vk *vk);

#ifdef __cplusplus
}
#endif
#endif
