/* PCE internals shared by the builder (pce.c), the evaluation (pce_eval.c),
 * the file format (pce_file.c), the recording backend (pce_record.c), the
 * workspace (pce_work.c) and the kinds' drivers. */
#ifndef CZK_PCE_INTERNAL_H
#define CZK_PCE_INTERNAL_H

#include "cs/cs_internal.h"
#include "czk/pce.h"

#define CZK__PCE_LEN_ESCAPE 0xffffu
#define CZK__PCE_MAX_CODES 0xffffu
/* Code metadata: CZK__PCE_GENERAL = multiply by table[code]; otherwise the
 * coefficient is +-2^e: bits 0..7 = e, bit 8 = negative. Within a row, the
 * general terms come first, then the +-2^e terms by decreasing e, evaluated
 * by Horner's rule (doublings instead of multiplications). */
#define CZK__PCE_GENERAL 0xffffu
#define CZK__PCE_NEG 0x100u

typedef struct czk__pmat {
    uint64_t nnz, distinct, unit, pow2, n_over;
    uint16_t *len;   /* rows */
    uint64_t *block; /* nblocks + 1 nnz offsets */
    uint32_t *col;   /* nnz */
    uint16_t *code;  /* nnz */
    czk_fr *table;   /* distinct */
    uint16_t *meta;  /* distinct */
    uint64_t *over;  /* n_over pairs (row, length), sorted by row */
} czk__pmat;

struct czk_pce {
    uint64_t rows, cols, n_inputs, nblocks;
    czk__pmat m[3];
    uint64_t *dens[3]; /* A-aux, B-input, B-aux */
    uint64_t pop[3];
    char key[CZK_PCE_KEY_MAX];
    void *map;      /* read from a file: the mapping the matrices' arrays point into (else NULL) */
    size_t map_len;
    size_t map_range[3][2]; /* mapped: [first, end) bytes of each matrix's arrays in the mapping */
};

/* A mapped PCE (read from its file): the pages of matrix `which` (0..2; -1
 * every matrix) leave the process (madvise DONTNEED), so that the matrices
 * one evaluation at a time used count in its memory, not the whole file;
 * they stay in the page cache and the next use maps them back (no disk
 * read while the cache keeps them). No effect on a PCE built in memory. */
void czk__pce_drop_pages(const czk_pce *p, int which);
/* The same for rows [r0, r1) only: their lengths, columns and codes (the
 * whole pages inside those ranges). czk_pce_eval of a mapped PCE goes
 * through the rows in windows of czk__pce_eval_window rows and drops each
 * window after it, so an evaluation holds the coefficient tables and one
 * window (czk_pce_info eval_bytes), not whole matrices. */
void czk__pce_drop_rows(const czk_pce *p, int which, uint64_t r0, uint64_t r1);
/* Rows per window of a mapped evaluation (a multiple of CZK_PCE_BLOCK;
 * default 2^22). Tests set it small to cut a small circuit in windows. */
extern uint64_t czk__pce_eval_window;

/* File format (version 3): arrays start at multiples of this; the trailer
 * is XXH3-64 over the chunk digests (czk__pce_file_sum). */
#define CZK__PCE_FILE_ALIGN 4096u
#define CZK__PCE_SUM_CHUNK ((uint64_t)64 << 20)
/* The file checksum of buf[0, len) (the bytes before the trailer): XXH3-64
 * of the little-endian XXH3-64 digests of its 64 MiB chunks, which are
 * hashed on `threads` threads (0: all). */
uint64_t czk__pce_file_sum(const uint8_t *buf, uint64_t len, int threads);

/* The evaluation class of coefficient v: CZK__PCE_GENERAL, or the meta of
 * +-2^e (pce.c). czk__pce_classify_init() first (once per process is
 * enough; the builder calls it). */
void czk__pce_classify_init(void);
uint16_t czk__pce_classify(const czk_fr *v);

/* Row-at-a-time builder of one matrix (the columns may be remapped after). */
typedef struct czk__pmb czk__pmb;
czk_status czk__pmb_create(czk__pmb **out, const char *name, uint64_t rows_hint) CZK_WUR;
void czk__pmb_destroy(czk__pmb *b);
/* Append a row: n terms (col[i], coeff[i]); zero coefficients are dropped. */
czk_status czk__pmb_row(czk__pmb *b, const uint32_t *col, const czk_fr *const *coeff, uint32_t n) CZK_WUR;
/* Move the matrix out (b keeps nothing); rows = the number of rows added. */
czk_status czk__pmb_finish(czk__pmb *b, czk__pmat *out, uint64_t *rows) CZK_WUR;
void czk__pmat_free(czk__pmat *m);

/* Assemble a czk_pce from three finished matrices (taken over) and derive the
 * densities. */
czk_status czk__pce_assemble(czk_pce **out, czk__pmat m[3], uint64_t rows, uint64_t cols, uint64_t n_inputs,
                             const char *key) CZK_WUR;

/* A partition's workspace (pce_work.c): the witness a driver fills, a/b/c. */
struct czk_pce_work {
    const czk_pce *p;
    czk__cs_values v; /* input, aux: exactly the PCE's columns */
    size_t n_input, n_aux;
    czk_fr *a, *b, *c;
};


/* a * b = c on rows [0, n) of these vectors, which are rows base.. of the
 * circuit: CZK_ERR_UNSATISFIED naming the first failing row's number. */
czk_status czk__pce_check_rows(const czk_fr *a, const czk_fr *b, const czk_fr *c, uint64_t n, uint64_t base,
                               int threads) CZK_WUR;

#endif
