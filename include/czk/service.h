/* czk — the proving service: what `czk serve` runs behind its gRPC and
 * HTTP front ends (src/server/), in C.
 *
 * A service owns one long-lived engine (czk/engine.h) and a table of jobs
 * keyed by job id. A job is one request of the cuzk.v1.ProvingEngine wire
 * interface (docs/cuzk-api.md): a proof kind, its payload (the C1 envelope
 * for PoRep, bincode vanilla proofs for PoSt), a priority. Its life:
 *
 *   submit   the payload is decoded and checked at once (a malformed one is
 *            refused, naming what and where); the job is queued (PENDING)
 *   prepare  a job thread finds its parameters by Filecoin's v28 file name
 *            in the parameter cache and takes a reference on them (loaded
 *            once and kept resident; see residency), opens the kind's
 *            witness source (PCE matrices likewise resident)
 *   run      every partition goes through the engine (RUNNING): synthesis
 *            and proving pipelined with every other job's under one memory
 *            budget, higher priority first at every queue, then submission
 *            order; the proofs are verified before they are returned
 *   done     COMPLETED (the concatenated 192-byte proofs), FAILED (with a
 *            message) or CANCELLED; the result is kept for `retention_s`
 *            after completion, then forgotten
 *
 * A request is identified by its request_id AND its content (see
 * czk_service_submit): the same request again attaches to its job (pending,
 * running, or completed within the retention: its result); the same id with
 * other content is another job with a job id of its own.
 *
 * Residency: a parameter set is read into memory when it fits the budget
 * beside a partition's witness and prover scratch, else opened as streamed
 * parameters (czk_groth16_params_open_streamed: the file stays on disk, each
 * prover pass reads it through the page cache; GetStatus tier WARM). It
 * (with its witness source: PCE matrices) stays loaded after its jobs end, with a reference count of the jobs using it;
 * it is dropped when idle longer than eviction_min_idle_s, when a load
 * needs its bytes under the memory budget (least recently used first), or
 * by czk_service_evict. Parameters in use are never dropped.
 *
 * Every function is thread-safe. Errors return a czk_status with the
 * message in czk_last_error() of the calling thread; the front end maps
 * them to gRPC codes (czk_service_grpc_code).
 */
#ifndef CZK_SERVICE_H
#define CZK_SERVICE_H

#include <stddef.h>
#include <stdint.h>

#include "czk/common.h"
#include "czk/groth16.h"
#include "czk/kind.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The wire's enums, with the wire's numbers. */
typedef enum czk_svc_kind {
    CZK_SVC_KIND_UNSPECIFIED = 0,
    CZK_SVC_POREP = 1,        /* POREP_SEAL_COMMIT */
    CZK_SVC_SNAP = 2,         /* SNAP_DEALS_UPDATE */
    CZK_SVC_WINDOW_POST = 3,  /* WINDOW_POST_PARTITION */
    CZK_SVC_WINNING_POST = 4, /* WINNING_POST */
} czk_svc_kind;
#define CZK_SVC_N_KINDS 5

typedef enum czk_svc_priority {
    CZK_SVC_PRIORITY_UNSPECIFIED = 0, /* the kind's default (czk_svc_default_priority) */
    CZK_SVC_LOW = 1,
    CZK_SVC_NORMAL = 2,
    CZK_SVC_HIGH = 3,
    CZK_SVC_CRITICAL = 4,
} czk_svc_priority;

/* AwaitProofResponse.Status. */
typedef enum czk_svc_outcome {
    CZK_SVC_UNKNOWN = 0,
    CZK_SVC_COMPLETED = 1,
    CZK_SVC_FAILED = 2,
    CZK_SVC_CANCELLED = 3,
    CZK_SVC_TIMEOUT = 4,
} czk_svc_outcome;

/* SRSStatus.Tier. */
typedef enum czk_svc_tier { CZK_SVC_HOT = 0, CZK_SVC_WARM = 1, CZK_SVC_COLD = 2 } czk_svc_tier;

/* The kind's metric label (porep_c2, snap_update, window_post,
 * winning_post; "unspecified" for 0), its default priority (WinningPoSt
 * CRITICAL, WindowPoSt HIGH, the others NORMAL). */
const char *czk_svc_kind_label(czk_svc_kind k);
czk_svc_priority czk_svc_default_priority(czk_svc_kind k);

/* ---- options ------------------------------------------------------------------ */

typedef enum czk_log_level { CZK_LOG_ERROR = 0, CZK_LOG_WARN, CZK_LOG_INFO, CZK_LOG_DEBUG } czk_log_level;
/* One log line (no newline) at a level; `job` is the job id or NULL. */
typedef void (*czk_log_fn)(void *ctx, czk_log_level level, const char *job, const char *msg);

typedef struct czk_service_opts {
    const char *param_cache;     /* directory of the v28 parameter files; NULL: czk_fc_param_cache_dir() */
    uint64_t memory_budget;      /* bytes for the engine and resident data; 0: czk_engine_default_budget() */
    int threads;                 /* cores to use; 0: czk_threads() */
    int synth_workers;           /* 0: max(1, threads / 2) */
    int batch;                   /* partitions per prover pass (engine); 0: 1 */
    int queue_depth;             /* witnesses ready or in synthesis (czk_engine_opts.queue_depth); 0: default */
    double batch_timeout_s;      /* <= 0: the engine's default */
    int no_critical_lane;        /* 1: CRITICAL jobs queue with the rest; 0 (default): they get the
                                    engine's urgent lane (czk_engine_opts.urgent_priority) */
    int background_nice;         /* with the lane: nice levels the regular workers lower themselves by
                                    (czk_engine_opts.background_nice); 0: none */
    czk_pce_mode pce;            /* PCE for kinds that have it (PoRep); default off */
    double retention_s;          /* results kept after completion; <= 0: 600 */
    double eviction_min_idle_s;  /* resident data unused this long is dropped; <= 0: 300 */
    int no_verify;               /* 1: return proofs unverified (tests, benchmarks only) */
    int params_check_set;        /* 1: validate parameter files with params_check; 0: pinned */
    czk_groth16_check params_check; /* FULL, PINNED (checksum sidecar, else FULL once), CURVE */
    /* Parameters larger than the budget allows beside a partition stay on
     * disk and each prover pass streams them (tier WARM):
     * 0 auto (the default), 1 always stream, -1 never (such a job fails). */
    int stream_params;
    uint64_t stream_chunk_bytes; /* a streamed pass's chunk of points; 0: 256 MiB */
    czk_log_fn log;              /* NULL: no log */
    void *log_ctx;
    czk_log_level log_level;     /* lines above it are not passed to log */
} czk_service_opts;

typedef struct czk_service czk_service;

czk_status czk_service_create(czk_service **out, const czk_service_opts *opts) CZK_WUR;
/* Stop accepting (submit then fails with CZK_ERR_UNAVAILABLE); with
 * cancel_running, cancel every queued and running job, else let them
 * finish; return once no job runs. Waiters get their results. Idempotent. */
void czk_service_shutdown(czk_service *s, int cancel_running);
/* czk_service_shutdown(s, 1) if not done, then free everything. NULL is fine. */
void czk_service_destroy(czk_service *s);

/* ---- jobs --------------------------------------------------------------------- */

/* A byte string borrowed from the caller for the duration of the call. */
typedef czk_bytes czk_svc_bytes;

/* SubmitProofRequest. Everything is copied or decoded during submit. */
typedef struct czk_svc_request {
    const char *request_id;      /* at most CZK_SVC_REQUEST_ID_MAX bytes; NULL or "": anonymous (a UUID job id) */
    czk_svc_kind kind;
    uint64_t sector_size;        /* 0: from registered_proof */
    uint64_t registered_proof;   /* the filecoin-proofs-api number (PoSt, Snap; PoRep's is in the C1) */
    czk_svc_priority priority;
    czk_svc_bytes vanilla_proof; /* PoRep: the C1 envelope JSON */
    const czk_svc_bytes *vanilla_proofs; /* PoSt: one bincode sector proof each; Snap: one per partition */
    size_t n_vanilla_proofs;
    uint64_t sector_number;
    uint64_t miner_id;
    czk_svc_bytes randomness;    /* PoSt: 32 bytes */
    uint32_t partition_index;
    czk_svc_bytes comm_r_old, comm_r_new, comm_d_new; /* Snap: 32 bytes each */
} czk_svc_request;

/* Longest request_id, and the size of a job id buffer: a job id is the
 * request_id, or the request_id with "~" and 16 hex digits of its content
 * digest when another job holds that id (see czk_service_submit). */
#define CZK_SVC_REQUEST_ID_MAX 255
#define CZK_SVC_ID_MAX (CZK_SVC_REQUEST_ID_MAX + 1 + 16 + 1 + 10 + 1)

typedef struct czk_svc_submitted {
    char job_id[CZK_SVC_ID_MAX];
    uint32_t queue_position; /* jobs ahead of it when queued (0: running or done) */
    int attached;            /* 1: the same request (id and content) named an existing job */
} czk_svc_submitted;

/* Queue a job, or attach to the job of the same request.
 *
 * Request identity: a request is its request_id together with the digest of
 * what it asks for (czk: proof kind, registered proof, sector size and
 * number, miner id, randomness, partition index, the three commitments and
 * the payload bytes; not the priority). A request_id is not unique per
 * request: Curio names every WindowPoSt partition of a deadline
 * "wdpost-<miner>-0-<randomness[:8]>" and a redone PoRep commit keeps
 * "porep-<miner>-<sector>". So:
 *   - same request_id, same content, a job pending, running or COMPLETED
 *     within the retention: attach to it (an idempotent retry; its result);
 *     a FAILED or CANCELLED one is replaced by a new job;
 *   - same request_id, other content: a new job of its own, whose job id is
 *     the request_id followed by "~" and 16 hex digits of its digest;
 *   - otherwise a new job whose job id is the request_id (a UUID when the
 *     request_id is empty).
 * Nothing is ever returned for a request it was not computed for; await,
 * cancel and the result use the job id (out->job_id).
 *
 * Errors: CZK_ERR_INVALID_ARG (a bad kind, a request_id too
 * long or with control characters), CZK_ERR_FORMAT / CZK_ERR_NOT_CANONICAL
 * (a malformed payload: the message names the field and the offset),
 * CZK_ERR_NOMEM (a job that cannot fit the memory budget even alone with its
 * parameters streamed: the message says what budget would do),
 * CZK_ERR_UNAVAILABLE (shutting down). */
czk_status czk_service_submit(czk_service *s, const czk_svc_request *r, czk_svc_submitted *out) CZK_WUR;

typedef struct czk_svc_result {
    char job_id[CZK_SVC_ID_MAX];
    czk_svc_outcome status;
    uint8_t *proof;          /* malloc'd (free with czk_svc_result_clear); NULL unless COMPLETED */
    size_t proof_len;        /* partitions x 192 */
    char error[1024];        /* FAILED / CANCELLED: why */
    uint64_t queue_wait_ms;  /* submission to the start of preparation */
    uint64_t srs_load_ms;    /* waiting for / loading the parameters and witness source */
    uint64_t synthesis_ms;   /* summed over partitions */
    uint64_t prove_ms;       /* summed over prover passes (the wire's gpu_compute_ms) */
    uint64_t total_ms;       /* submission to completion */
} czk_svc_result;
void czk_svc_result_clear(czk_svc_result *r);

/* Wait for the job up to timeout_ms (< 0: forever; 0: just look). The
 * result's status is TIMEOUT when it is not done yet (the job continues).
 * CZK_ERR_NOT_FOUND: no such job (never submitted, or expired). */
czk_status czk_service_await(czk_service *s, const char *job_id, int64_t timeout_ms, czk_svc_result *out) CZK_WUR;

/* Cancel: a queued job is removed, a running one stops at its next stage
 * or partition boundary and releases its memory; waiters get CANCELLED.
 * *was_running: 1 when it had started (loading its parameters, or a
 * partition of it synthesized or proven; one queued in the engine behind
 * other work, or waiting for another job's load of its parameters, has
 * not). A finished job is left as it is
 * (*was_running 0). CZK_ERR_NOT_FOUND when there is no such job. */
czk_status czk_service_cancel(czk_service *s, const char *job_id, int *was_running) CZK_WUR;

/* ---- parameters ----------------------------------------------------------------- */

/* Circuit ids: porep-2k porep-8m porep-512m porep-32g porep-64g,
 * wpost-2k ... wpost-64g (WindowPoSt, V1_2 params = V1's), winning-2k ...
 * winning-64g; snap-* are known names czk has no circuit for
 * (CZK_ERR_UNSUPPORTED). */
/* Load the circuit's parameters (and its witness source's shared data) and
 * keep them resident. *already: they were loaded; *ms: time taken. */
czk_status czk_service_preload(czk_service *s, const char *circuit_id, int *already, uint64_t *ms) CZK_WUR;
/* Drop them. Refused (CZK_ERR_BUSY, naming the jobs' count) while jobs
 * hold them; *was_loaded, *freed report what was dropped. An unknown id is
 * CZK_ERR_INVALID_ARG. */
czk_status czk_service_evict(czk_service *s, const char *circuit_id, int *was_loaded, uint64_t *freed) CZK_WUR;

/* ---- status ----------------------------------------------------------------------- */

typedef struct czk_svc_queue {
    czk_svc_kind kind;
    uint32_t pending, in_progress;
} czk_svc_queue;

typedef struct czk_svc_srs {
    char circuit_id[32];
    czk_svc_tier tier;     /* HOT: loaded; COLD: on disk only */
    uint64_t size_bytes;   /* bytes held (HOT) or the file's size (COLD) */
    uint64_t pce_bytes;    /* the witness source's shared data held */
    uint32_t ref_count;    /* jobs using it */
    double idle_s;         /* since the last job released it */
} czk_svc_srs;

typedef struct czk_svc_status {
    czk_svc_queue queues[CZK_SVC_N_KINDS - 1]; /* PoRep, Snap, WindowPoSt, WinningPoSt */
    czk_svc_srs *srs;      /* malloc'd: every circuit id whose file is resident or in the cache */
    size_t n_srs;
    uint64_t completed, failed, cancelled;
    uint64_t completed_by_kind[CZK_SVC_N_KINDS], failed_by_kind[CZK_SVC_N_KINDS];
    uint64_t uptime_s;
    uint64_t memory_reserved, memory_peak, memory_limit; /* the engine's reservation and budget */
    uint64_t resident_bytes;  /* parameters and witness-source data kept loaded */
    uint32_t running_jobs;
    int synth_workers, active_synth;
} czk_svc_status;

czk_status czk_service_status(czk_service *s, czk_svc_status *out) CZK_WUR;
void czk_svc_status_clear(czk_svc_status *st);

/* GET /status: a JSON document (uptime_secs, memory, synthesis, pipelines
 * with per-partition states, allocations, counters, as cuzk's; plus
 * budget and residency). malloc'd, NUL-terminated. */
czk_status czk_service_status_json(czk_service *s, char **out) CZK_WUR;
/* GET /metrics and GetMetrics: Prometheus text (cuzk's metric names plus
 * czk_*: per-stage duration histograms, budget, resident bytes, queue
 * wait). malloc'd. */
czk_status czk_service_metrics(czk_service *s, char **out) CZK_WUR;

/* The gRPC status code (google.rpc.Code numbers) for an error of submit,
 * await, cancel, preload or evict. */
int czk_service_grpc_code(czk_status st);

#ifdef __cplusplus
}
#endif
#endif
