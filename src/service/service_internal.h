/* The proving service's parts (czk/service.h): the job table, submit,
 * await, cancel and the reaper (service.c), residency of parameter sets and
 * the job thread (run.c), request payloads and circuit ids (payload.c),
 * status and metrics (report.c). One mutex, czk_service.mu, guards every field below
 * unless a comment says otherwise. */
#ifndef CZK_SERVICE_INTERNAL_H
#define CZK_SERVICE_INTERNAL_H

#include <pthread.h>

#include "czk/engine.h"
#include "czk/kind.h"
#include "czk/service.h"

/* ---- circuit ids and payloads (payload.c) ------------------------------------------ */

/* A circuit id's identity: its proof kind, sector size, and for PoSt the
 * API version that names its file (V1 and V1_2 share one parameter set). */
typedef struct svc_circuit {
    const char *id;      /* "porep-32g" */
    czk_svc_kind kind;
    uint64_t sector_size;
    const czk_proof_kind *pk;
} svc_circuit;

/* The circuit ids czk knows: every kind of the registry at every
 * production sector size (svc_circuits()[i], n entries). */
const svc_circuit *czk__svc_circuits(size_t *n);
const svc_circuit *czk__svc_circuit_find(const char *id);
/* The .params path of circuit c under dir. */
czk_status czk__svc_circuit_path(char *out, size_t cap, const char *dir, const svc_circuit *c) CZK_WUR;

/* A decoded request: what a job proves (the kind's decode, czk/kind.h). */
typedef struct svc_payload {
    czk_svc_kind kind;
    const czk_proof_kind *pk;
    void *data;               /* the kind's job data (czk_fc_c1 *, czk_post_vanilla *, czk_snap_vanilla *) */
    uint32_t partitions;
    char circuit_id[32];      /* "" for a custom shape */
    char what[96];            /* "PoRep 32GiB sector 12", for logs */
} svc_payload;

/* SHA-256 of everything a request asks for: proof kind, registered proof,
 * sector size and number, miner id, randomness, partition index, the three
 * commitments and the payload bytes, each length-prefixed (priority and
 * request_id are not part of it). Two requests with one request_id are the
 * same request only when their digests are equal. */
void czk__svc_request_digest(uint8_t out[32], const czk_svc_request *r);

/* Decode and check r's payload (errors name the field and offset). */
czk_status czk__svc_payload_decode(svc_payload *out, const czk_svc_request *r) CZK_WUR;
void czk__svc_payload_free(svc_payload *p);

/* ---- jobs (service.c) and residency (run.c) ---------------------------------------- */

typedef enum svc_state { SVC_PENDING = 0, SVC_PREPARING, SVC_RUNNING, SVC_DONE } svc_state;

/* A parameter set kept loaded, with the witness source its jobs share. */
typedef struct svc_resident {
    char circuit_id[32];
    char path[1024];
    int loading;              /* a job thread is reading it (others wait on cv) */
    int loaded;
    int streamed;             /* loaded as streamed parameters: the file stays on disk (tier WARM) */
    uint64_t file_size;       /* the file when it was loaded: another size or mtime reloads it */
    int64_t file_mtime_ns;
    czk_groth16_params params;
    czk_witness_source src;   /* opened by the first job (needs its data) */
    int have_src;
    uint64_t bytes, src_bytes;
    uint32_t refs;            /* jobs holding it */
    double last_used;         /* czk_now() when the last job released it */
    struct svc_resident *next;
} svc_resident;

typedef struct svc_job {
    struct czk_service *svc;
    char id[CZK_SVC_ID_MAX];  /* the job id: unique in the table */
    char request_id[CZK_SVC_REQUEST_ID_MAX + 1]; /* as submitted; "" for an anonymous request */
    uint8_t digest[32];       /* what the request asks for (czk__svc_request_digest) */
    svc_payload pay;
    int priority;             /* the wire's 1..4, after the kind's default */
    uint64_t task_bytes;      /* one partition's witness + resident prover scratch (residency decides with it) */
    svc_state state;
    czk_svc_outcome outcome;  /* DONE: COMPLETED, FAILED or CANCELLED */
    char error[1024];
    uint8_t *proof;
    size_t proof_len;
    double t_submit, t_prep, t_run, t_done;
    uint64_t synth_ms, prove_ms;
    int cancel;               /* cancel asked */
    int loading_self;         /* PREPARING: this job's thread is loading the parameters or witness source */
    int in_engine;            /* engine_id is live in the engine */
    uint64_t engine_id;
    uint32_t refs;            /* the table, the job thread, each waiter */
    int in_table;
    struct svc_job *next;
} svc_job;

/* Log a line through the service's log function (service.c). */
void czk__svc_log(struct czk_service *s, czk_log_level lv, const char *job, const char *fmt, ...) CZK_PRINTF(4, 5);

static inline double czk__svc_ms_between(double a, double b) { return b > a ? (b - a) * 1e3 : 0; }

/* Drop a reference to j (the lock held); the last one frees it (service.c). */
void czk__svc_job_unref_locked(svc_job *j);
/* The job reaches its end (once): counters, histograms, a log line (service.c). */
void czk__svc_finish_locked(struct czk_service *s, svc_job *j, czk_svc_outcome oc, const char *msg);
/* A job's thread: prepare and run it, then finish it (run.c; arg: the svc_job, one reference its own). */
void *czk__svc_job_main(void *arg);
/* Unlink and free a resident set, its parameters and witness source closed (the lock held; run.c). */
void czk__svc_resident_unlink_locked(struct czk_service *s, svc_resident *r);

/* Histogram of durations in seconds, fixed buckets (report.c). */
#define SVC_HIST_BUCKETS 14
typedef struct svc_hist {
    uint64_t count[SVC_HIST_BUCKETS + 1]; /* per bucket, last: above the largest */
    uint64_t n;
    double sum;
} svc_hist;
extern const double czk__svc_hist_bounds[SVC_HIST_BUCKETS];
void czk__svc_hist_add(svc_hist *h, double s);

enum { SVC_STAGE_QUEUE, SVC_STAGE_SRS, SVC_STAGE_SYNTH, SVC_STAGE_PROVE, SVC_STAGE_TOTAL, SVC_N_STAGES };
extern const char *const czk__svc_stage_names[SVC_N_STAGES];

struct czk_service {
    czk_service_opts o;
    char *param_cache;
    czk_engine *engine;
    pthread_mutex_t mu;
    pthread_cond_t cv;        /* any job or resident changed state */
    pthread_cond_t cv_reaper;
    pthread_t reaper;
    int reaper_started, stopping, stopped, threads_live;
    double t0;
    svc_job *jobs;            /* the table */
    svc_resident *res;
    uint64_t completed, failed, cancelled;
    uint64_t completed_by_kind[CZK_SVC_N_KINDS], failed_by_kind[CZK_SVC_N_KINDS];
    svc_hist stage[SVC_N_STAGES][CZK_SVC_N_KINDS];
};

#endif
