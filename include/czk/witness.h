/* czk — witness sources: how one partition of a proof becomes the
 * assignment the Groth16 prover consumes.
 *
 * A proof kind (PoRep, WindowPoSt, WinningPoSt, SnapDeals) can produce a
 * partition's witness in more than one way: full synthesis into the PROVE
 * backend (one thread per partition), the parallel prover (the challenges
 * of one partition on several threads), or the pre-compiled
 * constraint evaluation (witness-only synthesis + sparse mat-vec). The
 * engine pipelines any of them under its memory budget through this one
 * interface:
 *
 *   source   what a job's partitions are synthesized with; opened once per
 *            job (or shared by jobs of one shape), holds what the instances
 *            share (e.g. the PCE matrices, charged to the budget once)
 *   instance one partition's witness buffers: created from a source, then
 *            synthesize k / check / get (the assignment stays valid until
 *            the next synthesize, reset or destroy), reused across tasks
 *
 * Every function may be called from several threads at once with different
 * instances; a source is read-only once opened.
 */
#ifndef CZK_WITNESS_H
#define CZK_WITNESS_H

#include "czk/cs.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct czk_witness czk_witness;
typedef struct czk_witness_source czk_witness_source;

/* What a kind of source does; one static table per kind of source. */
typedef struct czk_witness_ops {
    const char *name;  /* "prove", "parallel", "pce": for errors, traces, --json */
    int multithreaded; /* 1: synthesize / check use the threads they are given */
    /* Bytes one instance holds for a partition of these counts (an upper
     * bound: the engine reserves it before the instance exists). */
    uint64_t (*bytes)(const czk_witness_source *s, const czk_cs_sizes *z);
    czk_status (*create)(czk_witness **out, const czk_witness_source *s, const czk_cs_sizes *z);
    /* Synthesize partition k of the job's data (a czk_fc_c1 for PoRep). */
    czk_status (*synthesize)(czk_witness *w, const void *data, uint32_t k, int threads);
    /* a * b = c on every row (CZK_ERR_UNSATISFIED naming the row otherwise). */
    czk_status (*check)(czk_witness *w, int threads);
    czk_status (*get)(czk_witness *w, czk_cs_assignment *out);
    void (*destroy)(czk_witness *w);
    void (*close)(czk_witness_source *s); /* frees state; NULL when there is none */
    /* Optional (NULL: not offered), for a prover that builds H one vector
     * at a time (czk_groth16_prove_stream): synthesize_witness makes only
     * the witness (get then gives input, aux and the densities, a/b/c
     * NULL; check evaluates the rows window by window), and fill writes a
     * (which 0), b (1) or c (2) of every row to out[0..m), zero past them. */
    czk_status (*synthesize_witness)(czk_witness *w, const void *data, uint32_t k, int threads);
    czk_status (*fill)(czk_witness *w, int which, czk_fr *out, size_t m, int threads);
    /* Optional: bytes an instance holds after synthesize_witness alone (the
     * engine reserves this for a task whose parameters are streamed);
     * NULL: bytes(). */
    uint64_t (*witness_only_bytes)(const czk_witness_source *s, const czk_cs_sizes *z);
} czk_witness_ops;

/* An open source: its ops and what its instances share. */
struct czk_witness_source {
    const czk_witness_ops *ops;
    void *state;           /* owned by the source */
    uint64_t shared_bytes; /* bytes held by state while the source is open */
};

/* Circuit function of the generic source: synthesize partition k of data
 * into cs (a reset PROVE backend), without czk_cs_finalize. */
typedef czk_status (*czk_witness_synth_fn)(czk_cs *cs, const void *data, uint32_t k);

/* The PROVE-backend source for any circuit given by its synthesis function:
 * one single-threaded synthesis per partition, LC storage lc. */
czk_status czk_witness_source_cs(czk_witness_source *out, czk_witness_synth_fn synth, czk_lc_kind lc) CZK_WUR;

/* Close a source (calls its ops' close); safe on a zeroed struct. */
void czk_witness_source_close(czk_witness_source *s);

/* Bytes of one partition's witness in the PROVE backend (a/b/c, aux, input,
 * densities, and a margin for LC buffers). */
uint64_t czk_witness_cs_bytes(const czk_cs_sizes *z);

#ifdef __cplusplus
}
#endif
#endif
