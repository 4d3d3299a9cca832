/* czk — rank-1 constraint system (R1CS) synthesis, in the style of bellpepper.
 *
 * VARIABLES. A czk_var is a 32-bit handle: bit 31 set = public input, clear =
 * auxiliary (private) variable; bits 0..30 = index. CZK_VAR_ONE is input 0, the
 * constant 1, allocated by every backend at creation.
 *
 * LINEAR COMBINATIONS have bellpepper's semantics exactly: terms are split into
 * inputs and aux, each kept sorted by index; adding a term whose index is
 * already present adds the coefficients (a coefficient that becomes zero stays
 * in the LC; evaluation and densities skip it). Appending an index greater than
 * the last one is a fast path (no search).
 *
 * STORAGE VARIANTS. How the library's own LCs store their terms is chosen at
 * run time, per constraint system (czk_lc_kind: vec, inline1, inline2,
 * inline4; czk_cs_create), and costs nothing per term: the synthesis code is
 * compiled once per variant inside the library. Circuits reach it through
 * the entry points that take a czk_cs (czk_poseidon_circuit_any,
 * czk_merkle_por_circuit_any, czk_porep_synthesize ...). Code outside the
 * library builds constraints from views: czk_cs_alloc, czk_cs_enforce.
 *
 * BACKENDS (czk_cs_backend):
 *   PROVE   input/aux assignments, a/b/c evaluations per constraint and the
 *           A-aux, B-input, B-aux densities as bellperson's prover computes
 *           them; czk_cs_finalize() appends one constraint
 *           (input_i) * 0 = 0 per input.
 *   SHAPE   records A, B, C as CSR over columns [inputs | aux] (no values).
 *   TEST    keeps values, constraints and namespaced names; satisfiability,
 *           the name of the first unsatisfied constraint, a stable hash.
 *   WITNESS computes values only; enforce is skipped (gadgets check
 *           czk_cs_needs_constraints() and do not even build the LCs, so
 *           n_constraints counts only the enforce calls actually made).
 *
 * NAMES. alloc / enforce / namespace take (const char *name, uint64_t idx);
 * idx == CZK_NOIDX means "just name", otherwise the component reads
 * "name idx" (as bellpepper's format!("name {}", idx)). Only the TEST backend
 * formats or stores them, so the proving path never builds a string.
 *
 * ERRORS. alloc on a backend that needs values with value == NULL returns
 * CZK_ERR_MISSING_ASSIGNMENT; gadgets return CZK_ERR_DIV_BY_ZERO for inverses
 * of zero; czk_cs_test_check / czk_cs_prove_check return CZK_ERR_UNSATISFIED
 * naming the constraint. Messages via czk_last_error().
 *
 * THREADS. A czk_cs is used by one thread at a time. LC heap buffers are
 * recycled through a per-thread pool (no allocation per term or per enforce
 * once warm).
 *
 * A czk_cs is opaque: its layout, the backends' operations and the LC
 * machinery are internal (src/cs/cs_internal.h, src/cs/lc.h).
 */
#ifndef CZK_CS_H
#define CZK_CS_H

#include "czk/common.h"
#include "czk/field.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- variables ------------------------------------------------------------ */

typedef uint32_t czk_var;

#define CZK_VAR_INPUT_FLAG 0x80000000u
#define CZK_VAR_INDEX_MASK 0x7fffffffu
#define CZK_VAR_ONE ((czk_var)CZK_VAR_INPUT_FLAG) /* input 0 */
#define CZK_VAR_MAX_INDEX CZK_VAR_INDEX_MASK
#define CZK_NOIDX UINT64_MAX

static inline czk_var czk_var_aux(uint32_t i) { return (czk_var)(i & CZK_VAR_INDEX_MASK); }
static inline czk_var czk_var_input(uint32_t i) { return (czk_var)(i | CZK_VAR_INPUT_FLAG); }
static inline int czk_var_is_input(czk_var v) { return (v & CZK_VAR_INPUT_FLAG) != 0; }
static inline uint32_t czk_var_index(czk_var v) { return v & CZK_VAR_INDEX_MASK; }

/* -1 in Montgomery form (r - R). CZK_FR_ONE / CZK_FR_ZERO are in field.h. */
extern const czk_fr CZK_FR_MINUS_ONE;

/* ---- linear-combination terms, views, storage kinds ------------------------ */

/* One term: coefficient (Montgomery form) of variable `index` (input or aux
 * is implied by which array of the LC holds the term). 40 bytes. reserved_
 * is internal (it may record that coeff = +-2^e, to scale without a
 * multiplication); readers ignore it. */
typedef struct czk_lc_term {
    uint32_t index;
    uint32_t reserved_;
    czk_fr coeff;
} czk_lc_term;

/* A read-only view of an LC (what backends receive). Terms sorted by index,
 * no duplicate index. */
typedef struct czk_lc_view {
    const czk_lc_term *in;
    const czk_lc_term *aux;
    uint32_t n_in, n_aux;
} czk_lc_view;

typedef enum czk_lc_kind {
    CZK_LC_VEC = 0,     /* heap vector (capacity doubles; buffers pooled) */
    CZK_LC_INLINE1 = 1, /* small vector, 1 term inline per indexer, then heap */
    CZK_LC_INLINE2 = 2,
    CZK_LC_INLINE4 = 3,
    CZK_LC_KIND_COUNT
} czk_lc_kind;
#define CZK_LC_DEFAULT CZK_LC_VEC

/* "vec", "inline1", "inline2", "inline4". */
const char *czk_lc_kind_name(czk_lc_kind k);
/* Parse a name as above; CZK_ERR_INVALID_ARG naming the string otherwise. */
czk_status czk_lc_kind_parse(czk_lc_kind *out, const char *s) CZK_WUR;

/* ---- the constraint system ------------------------------------------------- */

typedef enum czk_cs_backend {
    CZK_CS_PROVE = 0,
    CZK_CS_SHAPE = 1,
    CZK_CS_TEST = 2,
    CZK_CS_WITNESS = 3,
    CZK_CS_BACKEND_COUNT
} czk_cs_backend;

const char *czk_cs_backend_name(czk_cs_backend b); /* "prove", "shape", "test", "witness" */
czk_status czk_cs_backend_parse(czk_cs_backend *out, const char *s) CZK_WUR;

typedef struct czk_cs czk_cs;

/* Expected sizes (0 = unknown): vectors are reserved up front. */
typedef struct czk_cs_sizes {
    uint64_t n_inputs, n_aux, n_constraints;
} czk_cs_sizes;

/* Create a backend using LC storage `lc`. sizes may be NULL. */
czk_status czk_cs_create(czk_cs **out, czk_cs_backend backend, czk_lc_kind lc,
                         const czk_cs_sizes *sizes) CZK_WUR;
void czk_cs_destroy(czk_cs *cs);
/* Forget everything synthesized (keeps allocated capacity; ONE re-allocated). */
void czk_cs_reset(czk_cs *cs);

/* 1 when the backend keeps values (PROVE, TEST, WITNESS): code that builds
 * constraints must then compute and pass every value. */
int czk_cs_has_values(const czk_cs *cs);
/* 0 when enforce is a no-op (WITNESS): constraints need not even be built. */
int czk_cs_needs_constraints(const czk_cs *cs);
/* What has been synthesized so far: inputs (ONE included), aux variables and
 * constraints (the input rows of czk_cs_finalize included once appended). */
void czk_cs_counts(const czk_cs *cs, czk_cs_sizes *out);

/* Allocate an aux / input variable holding *value (Montgomery form). value may
 * be NULL only on backends without values (SHAPE); otherwise
 * CZK_ERR_MISSING_ASSIGNMENT. */
czk_status czk_cs_alloc(czk_cs *cs, czk_var *out, const czk_fr *value, const char *name,
                        uint64_t idx) CZK_WUR;
czk_status czk_cs_alloc_input(czk_cs *cs, czk_var *out, const czk_fr *value, const char *name,
                              uint64_t idx) CZK_WUR;
/* Enforce <a,w> * <b,w> = <c,w>. The views are sorted by index with no
 * duplicate (czk_lc_view). CZK_ERR_NOMEM when the library's LC storage was
 * exhausted since the last enforce on this thread (a term was dropped). */
czk_status czk_cs_enforce(czk_cs *cs, const czk_lc_view *a, const czk_lc_view *b, const czk_lc_view *c,
                          const char *name, uint64_t idx) CZK_WUR;
/* Enter / leave a namespace (kept by the TEST backend only). */
void czk_cs_ns_push(czk_cs *cs, const char *name, uint64_t idx);
void czk_cs_ns_pop(czk_cs *cs);

/* Value of a variable (PROVE, TEST, WITNESS). CZK_ERR_INVALID_ARG if the
 * variable does not exist or the backend keeps no values. */
czk_status czk_cs_value(const czk_cs *cs, czk_fr *out, czk_var v) CZK_WUR;

/* PROVE: append the input constraints (input_i) * 0 = 0 (call once, after
 * synthesis; bellperson does this in create_proof). SHAPE: same rows. Other
 * backends: no-op. */
czk_status czk_cs_finalize(czk_cs *cs) CZK_WUR;

/* ---- PROVE backend results ------------------------------------------------- */

typedef struct czk_cs_assignment {
    const czk_fr *input; size_t n_input; /* input[0] = ONE */
    const czk_fr *aux; size_t n_aux;
    const czk_fr *a, *b, *c; size_t n_constraints;
    /* density bitmaps, bit i of word i/64; popcounts */
    const uint64_t *a_aux_density; size_t a_aux_popcount;
    const uint64_t *b_input_density; size_t b_input_popcount;
    const uint64_t *b_aux_density; size_t b_aux_popcount;
} czk_cs_assignment;

/* Borrow the PROVE backend's vectors (valid until reset/destroy). */
czk_status czk_cs_prove_get(const czk_cs *cs, czk_cs_assignment *out) CZK_WUR;
/* Check a*b = c for every constraint; CZK_ERR_UNSATISFIED naming the first
 * failing row otherwise. */
czk_status czk_cs_prove_check(const czk_cs *cs) CZK_WUR;

/* ---- SHAPE backend results ------------------------------------------------- */

/* One matrix in CSR: row r's terms are col[row_ptr[r] .. row_ptr[r+1]),
 * columns over [inputs | aux] (aux j -> n_inputs + j), sorted within a row
 * (inputs first), coefficients as the LC held them (zero ones included). */
typedef struct czk_csr {
    uint64_t n_rows, n_cols, nnz;
    uint64_t *row_ptr; /* n_rows + 1 */
    uint32_t *col;
    czk_fr *val;
} czk_csr;

/* Build A, B, C from the recorded shape (the matrices are owned by the caller:
 * czk_csr_clear each). Call after czk_cs_finalize if the input rows are wanted. */
czk_status czk_cs_shape_csr(const czk_cs *cs, czk_csr *a, czk_csr *b, czk_csr *c) CZK_WUR;
void czk_csr_clear(czk_csr *m);

/* ---- TEST backend ---------------------------------------------------------- */

/* CZK_OK if every constraint holds, else CZK_ERR_UNSATISFIED with the message
 * "constraint N 'path/of/name' is not satisfied". */
czk_status czk_cs_test_check(const czk_cs *cs) CZK_WUR;
/* Index of the first unsatisfied constraint, or -1. */
int64_t czk_cs_test_which_unsatisfied(const czk_cs *cs);
/* Namespaced name of constraint i ("a/b/name 3"), NULL if out of range. */
const char *czk_cs_test_constraint_name(const czk_cs *cs, uint64_t i);
/* Namespaced name of a variable. */
const char *czk_cs_test_var_name(const czk_cs *cs, czk_var v);
/* Find a variable by its full path; CZK_ERR_INVALID_ARG if none. */
czk_status czk_cs_test_find_var(const czk_cs *cs, czk_var *out, const char *path) CZK_WUR;
/* Overwrite a variable's value (to check that gadgets detect bad witnesses). */
czk_status czk_cs_test_set(czk_cs *cs, czk_var v, const czk_fr *value) CZK_WUR;
/* Stable hash (hex, 64 chars + NUL) of the whole system: counts, then every
 * constraint's A, B, C with duplicate variables merged and zero terms dropped,
 * as bellpepper's TestConstraintSystem::hash orders it, hashed with SHA-256. */
void czk_cs_test_hash(const czk_cs *cs, char out[65]);
/* Constraint i as views (valid until the next enforce). */
czk_status czk_cs_test_constraint(const czk_cs *cs, uint64_t i, czk_lc_view *a, czk_lc_view *b,
                                  czk_lc_view *c) CZK_WUR;

/* ---- WITNESS backend ------------------------------------------------------- */

/* Borrow the values (valid until reset/destroy). */
czk_status czk_cs_witness_get(const czk_cs *cs, const czk_fr **input, size_t *n_input,
                              const czk_fr **aux, size_t *n_aux) CZK_WUR;

/* ---- R1CS and assignment digests (docs/r1cs-digest.md) ----------------------
 * Two SHA-256 digests of one synthesized circuit that czk and the reference
 * (tests/oracle, bellpepper) both print: equal digests mean equal constraint
 * matrices (order and every coefficient) and an equal witness.
 *
 *   h_c  = SHA-256(LC(A_c) || LC(B_c) || LC(C_c)), LC = u32le n || n x (u64le var
 *          || 32-byte canonical little-endian coefficient); inputs ascending, then
 *          aux ascending (var = i, or 2^63 | j); repeated variables summed, zero
 *          coefficients left out
 *   r1cs = SHA-256(h_0 .. h_{m-1} || u64le n_inputs || u64le n_aux || u64le m)
 *   assignment = SHA-256(input_0 .. || aux_0 .. || u64le n_inputs || u64le n_aux)
 *
 * m counts the circuit's own constraints: the (input_i) * 0 = 0 rows that
 * czk_cs_finalize appends (PROVE, SHAPE) are not hashed. n_inputs counts ONE.
 * The dump ("CZKR1CS1" || u64le n_inputs || n_aux || m || h_0 .. h_{m-1}) lists
 * every h_c, so that two sides can find the first constraint where they part. */

#define CZK_R1CS_DUMP_MAGIC "CZKR1CS1"
#define CZK_R1CS_DUMP_HEADER 32 /* magic and the three counts; h_c follow */

typedef struct czk_r1cs_digest {
    uint8_t r1cs[32];
    uint64_t n_inputs; /* including ONE */
    uint64_t n_aux;
    uint64_t n_constraints; /* m */
} czk_r1cs_digest;

typedef struct czk_r1cs_digest_opts {
    const char *dump_path;    /* write the dump there (temporary name, fsync, rename); NULL: none */
    const char *compare_path; /* compare every h_c with this dump (*diff); NULL: none */
    int threads;              /* row hashes in parallel; < 1: 1. The digester with threads > 1 and
                               * no names hashes batches of rows on threads - 1 workers and the
                               * enforcing thread while synthesis goes on (the same digest) */
    int names;                /* digester only: keep namespace paths (the czk_cs it gives keeps
                               * namespaces, so gadgets take their named code paths) so
                               * that the diff names its constraint */
} czk_r1cs_digest_opts;

/* counts_differ bits */
#define CZK_R1CS_DIFF_INPUTS 1u
#define CZK_R1CS_DIFF_AUX 2u
#define CZK_R1CS_DIFF_CONSTRAINTS 4u

/* Result of a comparison with a dump (opts->compare_path). */
typedef struct czk_r1cs_diff {
    int identical;           /* 1: equal counts and every h_c equal */
    unsigned counts_differ;  /* CZK_R1CS_DIFF_* */
    uint64_t ref_n_inputs, ref_n_aux, ref_n_constraints; /* the dump's counts */
    int64_t first;           /* first index < min(m, dump's m) whose h_c differs; -1: none */
    uint8_t h_ours[32], h_ref[32]; /* h_first on both sides */
    czk_lc_view lc[3];       /* czk's A, B, C of constraint `first`, canonical order, zero terms
                              * left out, coefficients in Montgomery form (owned) */
    char *path;              /* its namespace path when the source keeps names (TEST backend,
                              * digester with opts.names), else NULL (owned) */
    czk_lc_term *terms_;     /* storage behind lc */
} czk_r1cs_diff;

/* Free what a diff owns (safe on a zeroed or cleared diff). */
void czk_cs_r1cs_diff_clear(czk_r1cs_diff *d);

/* h_c of one constraint. The views may be in any order and hold repeated
 * indices and zero coefficients (the encoding sorts, sums, drops). Input
 * indices are input numbers (ONE = 0), aux indices aux numbers. */
czk_status czk_cs_r1cs_digest_row(uint8_t h[32], const czk_lc_view *a, const czk_lc_view *b,
                                   const czk_lc_view *c) CZK_WUR;

/* Digest of a synthesized TEST or SHAPE constraint system (PROVE and WITNESS
 * keep no constraints: use the digester). finalized: 1 when czk_cs_finalize
 * was called on a SHAPE backend (its last n_inputs rows are checked to be the
 * input constraints and left out; TEST appends none, finalized is ignored).
 * SHAPE goes through czk_cs_shape_csr (a copy of the matrices: for the
 * largest circuits use the digester). diff: filled when opts->compare_path is
 * set (clear it with czk_cs_r1cs_diff_clear), may be NULL otherwise. A
 * malformed dump is CZK_ERR_FORMAT naming the file and offset. */
czk_status czk_cs_r1cs_digest(czk_r1cs_digest *out, czk_r1cs_diff *diff, const czk_cs *cs, int finalized,
                              const czk_r1cs_digest_opts *opts) CZK_WUR;

/* The same over CSR matrices with columns [inputs | aux] (czk_cs_shape_csr's
 * layout; n_aux = n_cols - n_inputs): rows [0, m) are hashed, later ones (the
 * input constraints) ignored. */
czk_status czk_cs_r1cs_digest_csr(czk_r1cs_digest *out, czk_r1cs_diff *diff, const czk_csr *a, const czk_csr *b,
                                  const czk_csr *c, uint64_t n_inputs, uint64_t m,
                                  const czk_r1cs_digest_opts *opts) CZK_WUR;

/* Assignment digest of values in Montgomery form (input[0] = ONE). */
void czk_cs_r1cs_digest_assignment(uint8_t out[32], const czk_fr *input, size_t n_input, const czk_fr *aux,
                                   size_t n_aux);
/* Assignment digest of a PROVE, TEST or WITNESS backend's values. */
czk_status czk_cs_r1cs_digest_values(uint8_t out[32], const czk_cs *cs) CZK_WUR;

/* Streaming digester: a constraint system that hashes every constraint as it
 * is enforced (nothing kept per constraint but the dump's buffered writes and,
 * with opts->threads > 1, two batches of rows being hashed), for circuits too
 * large to record. create gives *cs (ONE allocated, owned by
 * the digester: synthesize into it; never czk_cs_finalize / reset / destroy
 * it). values: NULL (no values: gadgets run as for SHAPE), or a freshly
 * created PROVE, WITNESS or TEST backend (nothing allocated but ONE) that
 * receives every allocation (and every constraint when it wants them); its
 * values are then readable through *cs and after finish (finalize it, if
 * needed, after czk_cs_r1cs_digester_finish). finish gives the digest, writes
 * the dump and fills *diff (when comparing; may be NULL otherwise). */
typedef struct czk_r1cs_digester czk_r1cs_digester;
czk_status czk_cs_r1cs_digester_create(czk_r1cs_digester **out, czk_cs **cs, czk_cs *values, czk_lc_kind lc,
                                       const czk_r1cs_digest_opts *opts) CZK_WUR;
czk_status czk_cs_r1cs_digester_finish(czk_r1cs_digester *d, czk_r1cs_digest *out, czk_r1cs_diff *diff) CZK_WUR;
/* Frees the digester (a dump not finished is removed); values is not touched. */
void czk_cs_r1cs_digester_destroy(czk_r1cs_digester *d);

#ifdef __cplusplus
}
#endif
#endif
