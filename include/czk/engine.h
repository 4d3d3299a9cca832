/* czk — the pipelined proving engine.
 *
 * A JOB asks for Groth16 proofs of some partitions of one circuit instance
 * (e.g. the partitions of a PoRep sector's C1 data) with one parameter set.
 * The engine splits it into partition TASKS that flow through three stages
 * running at the same time on their own pthreads:
 *
 *   synthesis workers  pending tasks (highest priority first, then submission
 *                      order) -> a witness from the job's source (czk/witness.h:
 *                      PROVE backend, parallel prover, PCE): a/b/c, aux,
 *                      inputs, densities, checked (a*b = c) -> bounded ready queue
 *   prover workers     ready queue -> czk_groth16_prove_batch; up to
 *                      `batch` ready tasks with the same parameters are
 *                      proven in one pass (shared NTT domain; one
 *                      multi-scalar-set MSM per query, so each base of h, l,
 *                      a, b_g1, b_g2 is read once per window for all of them)
 *   assembler          a job whose partitions are all proven is verified
 *                      (batch verification, on by default) and completed;
 *                      czk_engine_wait returns its proofs in partition order
 *
 * Back-pressure: a synthesis worker starts a task only while the ready queue
 * plus the tasks in synthesis hold fewer than queue_depth witnesses (or
 * when the task's priority is above that of every ready task: so that
 * urgent work never waits behind a full queue of lesser witnesses), and
 * only after the task's memory is reserved. A prover takes work as soon as
 * any is ready; it waits for a fuller batch only while more tasks of the same
 * parameters are being synthesized, and at most batch_timeout_s.
 *
 * Memory budget: each task reserves, before anything of it is allocated, its
 * witness (its source's bytes(): czk_witness_cs_bytes for the PROVE backend)
 * and keeps it until it is proven; the prover scratch (czk_groth16_prove_bytes
 * with the engine's prove_threads and batch: padded a/b/c, NTT domain, MSM
 * scratch) exists only during a prover pass, so the engine holds one
 * reserve for the passes the admitted tasks still need (per prover, batch
 * tasks at the largest task's share; the urgent lane's likewise): a task is
 * admitted when its witness, the shared data and the grown reserve fit,
 * the synthesis of the next partition then runs beside the proving of this
 * one, and a prover never waits for memory. A job's parameters are charged
 * once while any job using them is live.
 *
 * Streamed parameters (czk_groth16_params_open_streamed: a 32GiB PoRep
 * partition's 47 GB on a smaller machine) are a parameter set like any
 * other: charged their verifying key only; a prover pass proves one of their
 * tasks with czk_groth16_prove_streamed, holding H's two vectors and one
 * chunk (czk_groth16_prove_stream_bytes); with a source that offers
 * synthesize_witness and fill (PCE) a task holds its witness only and a,
 * b, c are evaluated one at a time into H's vectors. A task waits while the budget is full;
 * a job one of whose tasks cannot fit even in an empty engine is rejected at
 * submission (CZK_ERR_NOMEM naming the bytes), never left waiting. Witness
 * buffers (czk_cs PROVE backends) are recycled between tasks
 * (czk_cs_reset keeps capacity); idle ones are freed when the budget needs
 * their bytes.
 *
 * Priorities: a higher `priority` job's tasks are synthesized and proven
 * before queued tasks of lower ones (task granularity: running tasks are not
 * preempted). With urgent_priority set, tasks of that priority or above also
 * have a lane of their own (a synthesis and a prover worker that take
 * nothing else), so they start at once beside the work in progress.
 *
 * Threads: synth_workers synthesis threads (one partition each at a time,
 * single-threaded), prove_workers prover threads each running OpenMP kernels
 * with prove_threads threads. Defaults on N cores (czk_threads()): synth
 * workers max(1, N/2), one prover, prove_threads N. On 2 cores the prover's
 * OpenMP team and the synthesis worker timeshare the cores while both run;
 * czk bench pipeline measures the alternatives.
 *
 * Observability: the per-task timeline (queued, synthesis start/end, prove
 * start/end, verify) is kept and written as Chrome trace JSON
 * (chrome://tracing, ui.perfetto.dev) to trace_path when the engine is
 * destroyed or czk_engine_write_trace is called; a progress callback is
 * called on every task event (see czk_engine_opts.progress).
 */
#ifndef CZK_ENGINE_H
#define CZK_ENGINE_H

#include "czk/cs.h"
#include "czk/groth16.h"
#include "czk/witness.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- circuit providers ------------------------------------------------------ */

/* A job's circuit: its partitions' sizes and public inputs, and the full
 * synthesis the engine runs when the job brings no witness source. `data`
 * is the job's circuit data (borrowed from submission until
 * czk_engine_wait returns). The functions are called from several threads
 * at once with different cs. Proof kinds (czk/kind.h) provide one each. */
typedef struct czk_engine_circuit {
    const char *name;
    /* Counts of partition k (inputs incl. ONE, aux, constraints incl. the
     * input constraints), used to reserve memory and pre-size the backend.
     * Exact or an upper bound. */
    czk_status (*sizes)(czk_cs_sizes *out, const void *data, uint32_t k);
    /* Synthesize partition k into cs (a reset PROVE backend); without
     * czk_cs_finalize. May be NULL when every job brings a source. */
    czk_status (*synthesize)(czk_cs *cs, const void *data, uint32_t k);
    /* Public inputs of partition k without ONE, as a verifier derives them
     * (n_inputs - 1 values). */
    czk_status (*public_inputs)(czk_fr *out, size_t n, const void *data, uint32_t k);
} czk_engine_circuit;

/* Most partitions of one prover pass. */
#define CZK_ENGINE_MAX_BATCH CZK_GROTH16_MAX_BATCH

/* ---- engine ------------------------------------------------------------------- */

typedef struct czk_engine_event {
    uint64_t job;      /* job id */
    uint32_t partition;
    int priority;
    int synth_worker;  /* worker indices, -1 for none (e.g. cancelled) */
    int prove_worker;
    int batch;         /* tasks proven in the same pass */
    int status;        /* czk_status of the task (CZK_OK, or why it failed) */
    double queued, synth_start, synth_end, prove_start, prove_end; /* seconds since engine start */
    /* Streamed parameters (czk_groth16_params_streamed): the pass read
     * params_bytes_read bytes of points in params_read_s (reading, hashing,
     * decoding) and validated them as params_check says (a czk_groth16_check);
     * lean: the witness was made alone and a, b, c evaluated into H's vectors
     * by the source's fill. streamed 0: resident parameters. */
    int streamed, lean, params_check;
    uint64_t params_bytes_read;
    double params_read_s;
    /* A streamed pass of a task below the urgent lane's priority waits
     * between its chunks while urgent tasks are being synthesized or proven
     * (the cores go to them): how often it waited and for how long (the
     * time is inside prove_start .. prove_end). */
    int yields;
    double yield_s;
} czk_engine_event;

typedef struct czk_engine_progress {
    uint64_t tasks_total, tasks_synthesized, tasks_proven;
    uint64_t jobs_total, jobs_done, jobs_failed;
    uint64_t memory_used, memory_budget;
    size_t ready;      /* witnesses waiting for a prover */
    uint64_t backends_created, backends_reused; /* PROVE backends made / recycled */
    double elapsed_s;
    /* The latest streamed prover pass: its job, partition and the fraction
     * of its parameters read so far (pass_fraction < 0: none has run). */
    uint64_t pass_job;
    uint32_t pass_partition;
    double pass_fraction;
} czk_engine_progress;

typedef struct czk_engine_opts {
    int synth_workers;      /* 0: max(1, czk_threads() / 2) */
    int synth_threads;      /* threads a multithreaded witness source gets per partition
                               (parallel prover, PCE); 0: max(1, czk_threads() / synth_workers) */
    int prove_workers;      /* 0: 1 */
    int prove_threads;      /* OpenMP threads per prover; 0: czk_threads() */
    int batch;              /* partitions per prover pass, 1..CZK_ENGINE_MAX_BATCH; 0: 1 */
    double batch_timeout_s; /* longest wait for a fuller batch; <= 0: 0.05 s */
    int queue_depth;        /* witnesses ready + in synthesis; 0: synth_workers + prove_workers * batch */
    uint64_t memory_budget; /* bytes; 0: physical memory minus max(1 GiB, 1/8 of it) */
    czk_lc_kind lc;         /* LC storage of the engine's own PROVE-backend sources */
    /* > 0: the urgent lane. One more synthesis worker and one more prover
     * worker that take only tasks of at least this priority, so that such a
     * task (a WinningPoSt, due within seconds) starts at once beside the work
     * in progress (sharing the cores with it) instead of waiting for a
     * synthesis or a prover pass of lesser work to end; it still needs its
     * memory reservation, and may also be taken by an idle regular worker.
     * 0: no lane (the default). */
    int urgent_priority;
    /* With the urgent lane: the regular workers lower their own scheduling
     * priority by this many nice levels (capped at 19) when they start, and
     * the threads they start (their OpenMP teams, the G2 MSM thread) inherit
     * it (Linux keeps a nice value per thread), while the lane's workers keep
     * the process's. While both run, the kernel then gives the lane most of
     * the cores (nice +10: about 9 in 10 of a contended core) instead of an
     * even share; alone, a regular worker runs at full speed. The regular
     * workers also yield so to other processes of the machine. 0: none (the
     * default); ignored without the lane. */
    int background_nice;
    int no_verify;          /* 1: return proofs unverified */
    int no_check;           /* 1: skip the a*b = c witness check after synthesis */
    const char *trace_path; /* Chrome trace JSON written at destroy; NULL: none */
    czk_rng *rng;           /* tests only: proof randomness from this stream (used under a
                               lock); NULL: getrandom for every proof */
    /* Called on every task event with a snapshot of the counters, from the
     * engine's threads (and from czk_engine_submit's caller), outside the
     * engine's lock and one call at a time; snapshots arrive in order (one
     * overtaken by a newer delivered snapshot is dropped). It may call
     * czk_engine_progress_get, _events, _peak_reserved, _write_trace and
     * _submit (a nested call from inside it is made directly); it must not
     * call czk_engine_wait or _destroy. It may still run after
     * czk_engine_wait returned, until czk_engine_destroy returns. */
    void (*progress)(void *ctx, const czk_engine_progress *p);
    void *progress_ctx;
} czk_engine_opts;

typedef struct czk_engine czk_engine;

/* Start the workers. opts may be NULL (defaults). */
czk_status czk_engine_create(czk_engine **out, const czk_engine_opts *opts) CZK_WUR;

typedef struct czk_engine_job {
    const czk_engine_circuit *circuit;
    /* How partitions become witnesses; NULL: the PROVE backend through
     * circuit->synthesize (one source per circuit, kept by the engine).
     * A caller's source is borrowed until czk_engine_wait returns for
     * every job using it; its shared_bytes are charged once while any of
     * its tasks holds a reservation. */
    const czk_witness_source *source;
    const void *data;                 /* borrowed until czk_engine_wait returns */
    const czk_groth16_params *params; /* borrowed likewise; jobs with the same pointer batch */
    const uint32_t *partitions;       /* NULL: 0 .. n_partitions-1 */
    uint32_t n_partitions;
    int priority;                     /* higher first; default 0 */
    const char *name;                 /* for errors and the trace; may be NULL */
} czk_engine_job;

/* Keep a caller's source's idle witness instances (their buffers: the
 * partition's vectors, allocated and faulted in once) pooled across jobs,
 * not only across one job's partitions, until czk_engine_source_release.
 * They stay counted in the budget and are freed when a reservation needs
 * the room. For a daemon that keeps a source open per circuit. */
czk_status czk_engine_source_keep(czk_engine *e, const czk_witness_source *src) CZK_WUR;
/* The caller is about to close src: destroy its idle instances now (those
 * of tasks still running are destroyed when they finish, as for any
 * caller's source). Call it before czk_witness_source_close. */
void czk_engine_source_release(czk_engine *e, const czk_witness_source *src);

/* Queue a job; *id identifies it for czk_engine_wait. Errors: invalid job
 * (CZK_ERR_INVALID_ARG), a task that cannot fit in the memory budget
 * (CZK_ERR_NOMEM), an engine shutting down. */
czk_status czk_engine_submit(czk_engine *e, uint64_t *id, const czk_engine_job *job) CZK_WUR;

/* Block until job `id` is done; proofs[i] receives the proof of the job's
 * i-th partition (n = n_partitions). Returns the job's status: CZK_OK (all
 * proven and, unless no_verify, verified), or the first error of a failed
 * task / CZK_ERR_VERIFY, with its message (naming job and partition) in
 * czk_last_error() of the calling thread. Each id may be waited once. */
czk_status czk_engine_wait(czk_engine *e, uint64_t id, czk_groth16_proof *proofs, size_t n) CZK_WUR;

/* Cancel job `id`: its queued tasks are dropped at once, a task being
 * synthesized or proven is dropped when that stage ends; each releases its
 * memory reservation. czk_engine_wait then returns CZK_ERR_CANCELLED.
 * *running (may be NULL): 1 when some task of it had started. A job that
 * already finished (or failed) is left as it is (*running 0, CZK_OK);
 * an unknown id is CZK_ERR_NOT_FOUND. */
czk_status czk_engine_cancel(czk_engine *e, uint64_t id, int *running) CZK_WUR;

/* Finish every submitted job (their results are dropped unless waited
 * before), stop the workers, write the trace, free everything. NULL is
 * fine. */
void czk_engine_destroy(czk_engine *e);

/* The timeline so far: a malloc'd copy of one event per task in submission
 * order (*out NULL and *n 0 when empty). Free with free(). */
czk_status czk_engine_events(const czk_engine *e, czk_engine_event **out, size_t *n) CZK_WUR;
/* The timeline entries of job `id` alone (live or waited, until
 * forgotten), in partition order; *out NULL and *n 0 when there are none. */
czk_status czk_engine_job_events(const czk_engine *e, uint64_t id, czk_engine_event **out, size_t *n) CZK_WUR;
/* Drop the timeline entries (and the verification span) of job `id`, a
 * job already waited: a long-running service calls this once it has read
 * them, so that the timeline holds only recent work. Unknown ids are
 * ignored. */
void czk_engine_forget(czk_engine *e, uint64_t id);
/* Write the Chrome trace JSON of the timeline now. */
czk_status czk_engine_write_trace(const czk_engine *e, const char *path) CZK_WUR;
void czk_engine_progress_get(const czk_engine *e, czk_engine_progress *out);
/* Peak of the reserved bytes since creation. */
uint64_t czk_engine_peak_reserved(const czk_engine *e);

/* ---- sizing ------------------------------------------------------------------- */

/* Bytes held by a parameter set. */
uint64_t czk_engine_params_bytes(const czk_groth16_params *p);
/* Smallest budget with which `job` can run on an engine created with opts:
 * its parameters plus its largest task. */
czk_status czk_engine_job_min_budget(uint64_t *out, const czk_engine_job *job,
                                     const czk_engine_opts *opts) CZK_WUR;
/* Default budget: physical memory minus max(1 GiB, 1/8 of it). */
uint64_t czk_engine_default_budget(void);


#ifdef __cplusplus
}
#endif
#endif
