/* The engine's parts (czk/engine.h): the public entry points and the job
 * lifecycle (engine.c), the bookkeeping done under the engine's mutex:
 * memory reservations, the witness pool, progress delivery (engine_book.c),
 * the synthesis, prover and assembler threads (engine_workers.c), and the
 * timeline and its Chrome trace (engine_trace.c). One mutex,
 * czk_engine.mu, guards the queues and counters below; the work itself
 * runs outside it. */
#ifndef CZK_ENGINE_INTERNAL_H
#define CZK_ENGINE_INTERNAL_H

#include <pthread.h>

#include "czk/czk.h"
#include "czk/engine.h"

typedef struct job job;

typedef struct task {
    job *job;
    uint32_t partition, index; /* partition number, position in the job */
    uint64_t seq;              /* global submission order */
    uint64_t witness_bytes, prove_bytes;
    uint64_t reserved;         /* its witness's bytes while admitted (the prover's are e->prove_reserve) */
    int lean;                  /* streamed parameters: witness only (synthesize_witness), a/b/c by fill */
    int live;                  /* admitted and not finished: its prover pass is provided for */
    int urgent_live;           /* counted in e->urgent_live (an urgent-lane task taken, not finished) */
    struct task *live_next;
    czk_cs_sizes sizes;
    czk_witness *wit; /* the witness instance, from the job's source */
    uint64_t wit_cap; /* witness bytes the instance was sized for */
    size_t ev;       /* index in the engine's timeline */
    struct task *next;
} task;

/* A resource jobs share (a parameter set, a witness source's state):
 * charged to the budget while any task using it holds a reservation. */
typedef struct res_ref {
    const void *key;
    uint64_t bytes;
    int reserved_tasks; /* tasks holding a reservation */
    int in_synth;       /* tasks using it being synthesized */
    struct res_ref *next;
} res_ref;

/* The PROVE-backend source the engine opens for jobs that bring none, one
 * per circuit, kept until the engine is destroyed (its pooled instances
 * serve every job of that circuit). */
typedef struct own_source {
    const czk_engine_circuit *circuit;
    czk_witness_source src;
    struct own_source *next;
} own_source;

/* A caller's source kept open across jobs (czk_engine_source_keep): its idle
 * instances stay pooled after its jobs end. */
typedef struct kept_source {
    const czk_witness_source *src;
    struct kept_source *next;
} kept_source;

struct job {
    uint64_t id;
    czk_engine_job spec;
    uint32_t *parts;
    task *tasks;
    res_ref *pref, *sref; /* parameters, witness source state */
    const czk_witness_source *src;
    czk_groth16_proof *proofs;
    uint32_t n_finished;
    int failed, done, verified;
    czk_status status;
    char msg[1024]; /* what czk_last_error holds (1024) with the job and partition in front */
    double verify_start, verify_end;
    job *next;      /* all live jobs */
    job *asm_next;  /* assembler queue */
};

typedef struct pooled_wit {
    const czk_witness_source *src;
    czk_witness *wit;
    uint64_t cap;
    struct pooled_wit *next;
} pooled_wit;

typedef struct worker_arg {
    czk_engine *e;
    int index;
    int urgent; /* the urgent lane's worker: takes only tasks of priority >= urgent_priority */
} worker_arg;

typedef struct job_span {
    uint64_t id;
    double start, end;
    int status;
} job_span;

struct czk_engine {
    czk_engine_opts o;
    char *trace_path;
    pthread_mutex_t mu;
    pthread_mutex_t cb_mu;       /* serializes progress callbacks (never taken under mu) */
    uint64_t prog_seq;           /* last snapshot number (mu) */
    uint64_t cb_delivered;       /* last snapshot delivered (cb_mu) */
    pthread_cond_t cv_synth, cv_prove, cv_asm, cv_done;
    int stopping;
    double t0;

    task *pending; /* sorted: priority desc, seq asc */
    task *ready;   /* same order */
    size_t n_ready;
    int in_synth;
    job *jobs;
    job *asm_head, *asm_tail;
    int asm_busy;
    res_ref *refs;
    own_source *own;
    kept_source *kept;
    pooled_wit *pool;
    task *live;               /* tasks admitted and not finished */
    int urgent_live;          /* urgent-priority tasks taken for synthesis and not finished (streamed
                                 passes of other tasks wait between chunks while there are any) */
    uint64_t prove_reserve;   /* in used: bytes for the prover passes the live tasks still need */
    uint64_t budget, used, peak;

    uint64_t next_job_id, next_seq;
    czk_engine_event *events;
    size_t n_events, cap_events;
    job_span *spans;
    size_t n_spans, cap_spans;
    czk_engine_progress prog;

    pthread_t *synth_threads, *prove_threads, asm_thread;
    worker_arg *synth_args, *prove_args;
    int n_synth, n_prove; /* workers of each stage, the urgent lane's included */
    int n_synth_started, n_prove_started, asm_started;
    czk_rng *rng;
};

static inline double rel(const czk_engine *e) { return czk_now() - e->t0; }

/* ---- bookkeeping, mu held (engine_book.c) ---------------------------------------- */

/* Number a progress snapshot into *out; 0 when no callback is set. */
uint64_t czk__engine_progress_snapshot_locked(czk_engine *e, czk_engine_progress *out);
/* Call the progress callback with snapshot seq (outside mu), unless a newer one was delivered. */
void czk__engine_progress_deliver(czk_engine *e, const czk_engine_progress *p, uint64_t seq);
/* Snapshot and deliver, mu released around the callback. */
void czk__engine_progress_locked(czk_engine *e);
/* Insert t into a queue sorted by priority desc, submission order asc. */
void czk__engine_insert_sorted(task **head, task *t);
void czk__engine_pooled_free(pooled_wit *pw);
/* Reserve t's memory (and hand it a pooled witness instance); 0: it does not fit now. */
int czk__engine_reserve_locked(czk_engine *e, task *t);
/* 1 when src is the engine's own source or one kept by czk_engine_source_keep. */
int czk__engine_source_is_own(const czk_engine *e, const czk_witness_source *src);
/* Destroy the pooled instances of a caller's source no live job uses. */
void czk__engine_purge_source_locked(czk_engine *e, const czk_witness_source *src);
/* Mark j failed (the first failure only), naming the partition and stage. */
void czk__engine_job_fail_locked(job *j, czk_status st, const char *what, uint32_t partition, const char *msg);
/* A task is finished (proven, failed or cancelled): its memory released, its job queued for the assembler once
 * every task is. */
void czk__engine_task_finished_locked(czk_engine *e, task *t);

/* ---- threads (engine_workers.c) ---------------------------------------------------- */

void *czk__engine_synth_main(void *arg); /* arg: a worker_arg */
void *czk__engine_prove_main(void *arg); /* arg: a worker_arg */
void *czk__engine_asm_main(void *arg);   /* arg: the engine */

#endif
