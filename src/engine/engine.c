/* The pipelined proving engine: pending tasks -> synthesis workers -> ready
 * queue -> prover workers (batched) -> assembler (verify) -> waiters. One
 * mutex guards all queues and counters; the work itself (synthesis, NTT,
 * MSM, verification) runs outside it. See include/czk/engine.h and
 * src/engine/README.md. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "common/fileio.h"
#include "cs/cs_internal.h"
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
    char msg[600];
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

static double rel(const czk_engine *e) { return czk_now() - e->t0; }

/* ---- sizing ------------------------------------------------------------------ */

uint64_t czk_engine_params_bytes(const czk_groth16_params *p)
{
    if (!p) return 0;
    if (czk_groth16_params_streamed(p)) /* the sections stay on disk; each prover pass holds its chunk */
        return sizeof *p + p->vk.n_ic * sizeof(czk_g1_affine) + 256;
    return sizeof *p + p->vk.n_ic * sizeof(czk_g1_affine) +
           (p->n_h + p->n_l + p->n_a + p->n_b_g1) * sizeof(czk_g1_affine) + p->n_b_g2 * sizeof(czk_g2_affine);
}

uint64_t czk_engine_default_budget(void)
{
    czk_memory_info mi;
    czk_memory_probe(&mi); /* MemTotal or a smaller cgroup limit */
    uint64_t phys = mi.limit;
    uint64_t margin = phys / 8 > (1ull << 30) ? phys / 8 : (1ull << 30);
    return phys > 2 * margin ? phys - margin : phys / 2;
}

static void resolve_opts(czk_engine_opts *o, const czk_engine_opts *in)
{
    if (in)
        *o = *in;
    else
        memset(o, 0, sizeof *o);
    int n = czk_threads();
    if (o->synth_workers <= 0) o->synth_workers = n / 2 > 1 ? n / 2 : 1;
    if (o->synth_threads <= 0) o->synth_threads = n / o->synth_workers > 1 ? n / o->synth_workers : 1;
    if (o->prove_workers <= 0) o->prove_workers = 1;
    if (o->prove_threads <= 0) o->prove_threads = n;
    if (o->batch <= 0) o->batch = 1;
    if (o->batch > CZK_ENGINE_MAX_BATCH) o->batch = CZK_ENGINE_MAX_BATCH;
    if (o->batch_timeout_s <= 0) o->batch_timeout_s = 0.05;
    if (o->queue_depth <= 0) o->queue_depth = o->synth_workers + o->prove_workers * o->batch;
    if (o->memory_budget == 0) o->memory_budget = czk_engine_default_budget();
}

static czk_status check_job(const czk_engine_job *job)
{
    if (!job || !job->circuit || !job->params)
        return czk_error(CZK_ERR_INVALID_ARG, "engine job: circuit and params are required");
    if (!job->circuit->sizes || !job->circuit->public_inputs || (!job->source && !job->circuit->synthesize))
        return czk_error(CZK_ERR_INVALID_ARG, "engine job: circuit '%s' lacks a function",
                         job->circuit->name ? job->circuit->name : "?");
    const czk_witness_source *w = job->source;
    const czk_witness_ops *op = w ? w->ops : NULL;
    if (w && (!op || !op->bytes || !op->create || !op->synthesize || !op->check || !op->get || !op->destroy))
        return czk_error(CZK_ERR_INVALID_ARG, "engine job: witness source '%s' lacks a function",
                         op && op->name ? op->name : "?");
    if (job->n_partitions == 0) return czk_error(CZK_ERR_INVALID_ARG, "engine job: no partitions");
    return CZK_OK;
}

/* A job with streamed parameters whose source can make the witness alone
 * and evaluate a, b, c one at a time into the prover's vector: its tasks
 * hold input and aux only (PCE), not the rows' a, b, c. */
static int job_lean(const czk_engine_job *job)
{
    const czk_witness_ops *op = job->source ? job->source->ops : NULL;
    return czk_groth16_params_streamed(job->params) && op && op->synthesize_witness && op->fill;
}

/* Sizes and bytes of every task of a job; *max_task the largest. */
static czk_status job_task_sizes(const czk_engine_job *job, const czk_engine_opts *o, czk_cs_sizes *sizes,
                                 uint64_t *wbytes, uint64_t *pbytes, uint64_t *max_task)
{
    *max_task = 0;
    czk_cs_sizes prev = {0, 0, 0};
    uint64_t prev_p = 0;
    for (uint32_t i = 0; i < job->n_partitions; i++) {
        uint32_t k = job->partitions ? job->partitions[i] : i;
        czk_cs_sizes s;
        czk_status st = job->circuit->sizes(&s, job->data, k);
        if (st != CZK_OK)
            return czk_error_context(st, "engine job '%s': sizes of partition %u", job->name ? job->name : "",
                                     k);
        uint64_t w = job->source ? job->source->ops->bytes(job->source, &s) : czk_witness_cs_bytes(&s), p;
        if (job_lean(job) && job->source->ops->witness_only_bytes)
            w = job->source->ops->witness_only_bytes(job->source, &s);
        if (i > 0 && s.n_inputs == prev.n_inputs && s.n_aux == prev.n_aux && s.n_constraints == prev.n_constraints)
            p = prev_p; /* partitions of one circuit: computed once */
        else
            p = czk_groth16_prove_bytes(&s, job->params, o->prove_threads, o->batch);
        prev = s;
        prev_p = p;
        if (sizes) sizes[i] = s;
        if (wbytes) wbytes[i] = w;
        if (pbytes) pbytes[i] = p;
        if (w + p > *max_task) *max_task = w + p;
    }
    return CZK_OK;
}

czk_status czk_engine_job_min_budget(uint64_t *out, const czk_engine_job *job, const czk_engine_opts *opts)
{
    czk_engine_opts o;
    resolve_opts(&o, opts);
    CZK_TRY(check_job(job));
    uint64_t mx;
    CZK_TRY(job_task_sizes(job, &o, NULL, NULL, NULL, &mx));
    *out = mx + czk_engine_params_bytes(job->params) + (job->source ? job->source->shared_bytes : 0);
    return CZK_OK;
}

/* ---- bookkeeping (mu held) ------------------------------------------------------ */

/* The progress callback runs outside mu, so it may call back into the
 * engine (czk_engine_progress_get, _events, _peak_reserved, _write_trace,
 * _submit). Snapshots are numbered under mu; cb_mu serializes the calls and
 * a snapshot older than one already delivered is dropped, so the callback
 * sees the counters in order. A callback re-entered on its own thread (it
 * submitted a job) is called directly: cb_mu is already held there. */
static _Thread_local const czk_engine *tl_in_callback;

static uint64_t progress_snapshot_locked(czk_engine *e, czk_engine_progress *out)
{
    e->prog.memory_used = e->used;
    e->prog.memory_budget = e->budget;
    e->prog.ready = e->n_ready;
    e->prog.elapsed_s = rel(e);
    if (!e->o.progress) return 0;
    *out = e->prog;
    return ++e->prog_seq;
}

static void progress_deliver(czk_engine *e, const czk_engine_progress *p, uint64_t seq)
{
    if (seq == 0) return;
    if (tl_in_callback == e) { /* this thread holds cb_mu */
        if (seq > e->cb_delivered) e->cb_delivered = seq;
        e->o.progress(e->o.progress_ctx, p);
        return;
    }
    pthread_mutex_lock(&e->cb_mu);
    if (seq > e->cb_delivered) {
        e->cb_delivered = seq;
        tl_in_callback = e;
        e->o.progress(e->o.progress_ctx, p);
        tl_in_callback = NULL;
    }
    pthread_mutex_unlock(&e->cb_mu);
}

/* Called with mu held at a point where the caller re-reads all shared state
 * afterwards: releases mu around the callback. */
static void progress_locked(czk_engine *e)
{
    czk_engine_progress snap;
    uint64_t seq = progress_snapshot_locked(e, &snap);
    if (seq == 0) return;
    pthread_mutex_unlock(&e->mu);
    progress_deliver(e, &snap, seq);
    pthread_mutex_lock(&e->mu);
}

static void insert_sorted(task **head, task *t)
{
    task **pp = head;
    int pr = t->job->spec.priority;
    while (*pp && ((*pp)->job->spec.priority > pr || ((*pp)->job->spec.priority == pr && (*pp)->seq < t->seq)))
        pp = &(*pp)->next;
    t->next = *pp;
    *pp = t;
}

static void use_bytes(czk_engine *e, uint64_t b)
{
    e->used += b;
    if (e->used > e->peak) e->peak = e->used;
}

/* Bytes a task's reservation adds for the shared resources of its job
 * that no task holds yet. */
static uint64_t shared_unreserved(const job *j)
{
    uint64_t b = j->pref->reserved_tasks == 0 ? j->pref->bytes : 0;
    if (j->sref && j->sref->reserved_tasks == 0) b += j->sref->bytes;
    return b;
}

static void pooled_free(pooled_wit *pw)
{
    pw->src->ops->destroy(pw->wit);
    free(pw);
}

/* Bytes the prover passes of the live tasks (and `extra`, about to be
 * admitted) may hold at once: each regular prover proves up to `batch`
 * tasks a pass, each task's share at most the largest prove_bytes; the
 * urgent lane's prover likewise for the urgent tasks. A task's witness is
 * reserved from its synthesis to its proof, but its prover scratch exists
 * only during its pass: so synthesis of the next partition may run beside
 * the proving of this one when witnesses + shared data + this reserve fit
 * the budget, and a prover never waits for memory. */
/* Counts a task into the largest prove_bytes and number of tasks of its
 * group: [0] resident parameters, [1] streamed ones (a pass proves one
 * task), [2] the urgent lane's. */
static void tally_prover(const czk_engine *e, const task *u, uint64_t mx[3], uint64_t n[3])
{
    int g = czk_groth16_params_streamed(u->job->spec.params);
    if (u->prove_bytes > mx[g]) mx[g] = u->prove_bytes;
    n[g]++;
    if (e->o.urgent_priority > 0 && u->job->spec.priority >= e->o.urgent_priority) {
        if (u->prove_bytes > mx[2]) mx[2] = u->prove_bytes;
        n[2]++;
    }
}

static uint64_t min_u64(uint64_t a, uint64_t b) { return a < b ? a : b; }

static uint64_t prover_reserve_locked(const czk_engine *e, const task *extra)
{
    uint64_t mx[3] = {0, 0, 0}, n[3] = {0, 0, 0};
    for (const task *u = e->live; u; u = u->live_next) tally_prover(e, u, mx, n);
    if (extra) tally_prover(e, extra, mx, n);
    /* an urgent task may be taken by a regular prover too: every task counts there */
    uint64_t w = (uint64_t)e->o.prove_workers, b = (uint64_t)e->o.batch;
    return mx[0] * min_u64(n[0], w * b) + mx[1] * min_u64(n[1], w) + mx[2] * min_u64(n[2], b);
}

/* Reserve the task's witness bytes, its shared resources' if not charged,
 * and what its prover pass adds to the prover reserve, and hand it an idle
 * witness instance of its source if one is pooled (its bytes become part
 * of the reservation). Frees other idle instances to make room. Returns 0
 * if the task does not fit now. */
static int reserve_locked(czk_engine *e, task *t)
{
    job *j = t->job;
    uint64_t reserve = prover_reserve_locked(e, t);
    uint64_t more = reserve > e->prove_reserve ? reserve - e->prove_reserve : 0;
    uint64_t base = more + shared_unreserved(j);
    for (;;) {
        pooled_wit **mine = &e->pool;
        while (*mine && (*mine)->src != j->src) mine = &(*mine)->next;
        pooled_wit *hit = *mine;
        uint64_t w = t->witness_bytes, pooled = 0;
        if (hit) {
            pooled = hit->cap;
            if (hit->cap > w) w = hit->cap;
        }
        if (e->used - pooled + base + w <= e->budget) {
            if (hit) {
                *mine = hit->next;
                e->used -= hit->cap;
                t->wit = hit->wit;
                free(hit);
                e->prog.backends_reused++;
            } else {
                t->wit = NULL;
            }
            t->wit_cap = w;
            use_bytes(e, base + w);
            t->reserved = w;
            e->prove_reserve += more;
            t->live = 1;
            t->live_next = e->live;
            e->live = t;
            j->pref->reserved_tasks++;
            if (j->sref) j->sref->reserved_tasks++;
            return 1;
        }
        /* free an idle instance other than the one this task could take, and retry */
        pooled_wit **vp = &e->pool;
        while (*vp && *vp == hit) vp = &(*vp)->next;
        if (!*vp) vp = hit ? mine : NULL;
        if (!vp || !*vp) return 0;
        pooled_wit *victim = *vp;
        *vp = victim->next;
        e->used -= victim->cap;
        pooled_free(victim);
    }
}

/* 1 while a job other than `except` with unfinished tasks uses source src. */
static int source_in_use_locked(const czk_engine *e, const czk_witness_source *src, const job *except)
{
    for (const job *x = e->jobs; x; x = x->next)
        if (x != except && x->src == src && x->n_finished < x->spec.n_partitions) return 1;
    return 0;
}

static int source_is_own(const czk_engine *e, const czk_witness_source *src)
{
    for (const own_source *o = e->own; o; o = o->next)
        if (&o->src == src) return 1;
    for (const kept_source *k = e->kept; k; k = k->next)
        if (k->src == src) return 1;
    return 0;
}

static void release_locked(czk_engine *e, task *t)
{
    job *j = t->job;
    if (t->live) {
        for (task **pp = &e->live; *pp; pp = &(*pp)->live_next)
            if (*pp == t) {
                *pp = t->live_next;
                break;
            }
        t->live = 0;
        uint64_t reserve = prover_reserve_locked(e, NULL);
        if (reserve < e->prove_reserve) {
            e->used -= e->prove_reserve - reserve;
            e->prove_reserve = reserve;
        }
    }
    if (t->reserved) {
        e->used -= t->reserved;
        t->reserved = 0;
        if (--j->pref->reserved_tasks == 0) e->used -= j->pref->bytes;
        if (j->sref && --j->sref->reserved_tasks == 0) e->used -= j->sref->bytes;
    }
    if (t->wit) {
        /* recycle: keep the instance (capacity) in the pool, counted as used,
         * while its source can still be asked for work: a caller's source is
         * closed by the caller once its jobs are waited for */
        pooled_wit *pw = NULL;
        int keep = source_is_own(e, j->src) || j->n_finished + 1 < j->spec.n_partitions ||
                   source_in_use_locked(e, j->src, j);
        if (keep && e->used + t->wit_cap <= e->budget) pw = malloc(sizeof *pw);
        if (pw) {
            pw->src = j->src;
            pw->wit = t->wit;
            pw->cap = t->wit_cap;
            pw->next = e->pool;
            e->pool = pw;
            use_bytes(e, pw->cap);
        } else {
            j->src->ops->destroy(t->wit);
        }
        t->wit = NULL;
    }
    pthread_cond_broadcast(&e->cv_synth);
}

/* Destroy the pooled instances of a caller's source no live job uses. */
static void purge_source_locked(czk_engine *e, const czk_witness_source *src)
{
    if (source_is_own(e, src) || source_in_use_locked(e, src, NULL)) return;
    pooled_wit **pp = &e->pool;
    while (*pp) {
        pooled_wit *pw = *pp;
        if (pw->src == src) {
            *pp = pw->next;
            e->used -= pw->cap;
            pooled_free(pw);
        } else {
            pp = &pw->next;
        }
    }
}

static void job_fail_locked(job *j, czk_status st, const char *what, uint32_t partition, const char *msg)
{
    if (j->failed) return;
    j->failed = 1;
    j->status = st;
    snprintf(j->msg, sizeof j->msg, "job %llu%s%s%s: partition %u: %s: %s", (unsigned long long)j->id,
             j->spec.name ? " (" : "", j->spec.name ? j->spec.name : "", j->spec.name ? ")" : "", partition,
             what, msg);
}

/* A task is finished (proven, failed or cancelled). */
static void task_finished_locked(czk_engine *e, task *t)
{
    job *j = t->job;
    release_locked(e, t);
    if (++j->n_finished == j->spec.n_partitions) {
        purge_source_locked(e, j->src);
        j->asm_next = NULL;
        if (e->asm_tail)
            e->asm_tail->asm_next = j;
        else
            e->asm_head = j;
        e->asm_tail = j;
        pthread_cond_signal(&e->cv_asm);
    }
    pthread_cond_broadcast(&e->cv_prove);
}

/* A regular worker beside the urgent lane: this thread's nice value raised
 * by background_nice (Linux: per thread, inherited by the threads it
 * creates, so its OpenMP team made later runs at it too). Raising one's own
 * nice needs no privilege; a failure leaves the worker as it was. */
static void lower_own_priority(const czk_engine *e, const worker_arg *wa)
{
    if (wa->urgent || e->o.urgent_priority <= 0 || e->o.background_nice <= 0) return;
    errno = 0;
    int cur = getpriority(PRIO_PROCESS, 0);
    if (cur == -1 && errno != 0) return;
    int want = cur + e->o.background_nice;
    if (want > 19) want = 19;
    if (want > cur) (void)setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), want);
}

/* ---- synthesis workers ------------------------------------------------------------ */

static void *synth_main(void *arg)
{
    worker_arg *wa = arg;
    czk_engine *e = wa->e;
    lower_own_priority(e, wa);
    pthread_mutex_lock(&e->mu);
    for (;;) {
        task *t = e->pending;
        /* the urgent lane sees only urgent work (the queue is sorted by
         * priority: the head is the most urgent task there is) */
        if (t && wa->urgent && t->job->spec.priority < e->o.urgent_priority) t = NULL;
        if (!t) {
            if (e->stopping) break;
            pthread_cond_wait(&e->cv_synth, &e->mu);
            continue;
        }
        if (t->job->failed) { /* cancel: the job already failed */
            e->pending = t->next;
            e->events[t->ev].status = t->job->status;
            task_finished_locked(e, t);
            continue;
        }
        /* A task that outranks everything ready is let past queue_depth:
         * otherwise CRITICAL work submitted behind a full ready queue of
         * lower-priority witnesses would wait for the prover to take one of
         * them first, a whole prover pass. One extra witness per priority
         * level at most; the memory reservation still applies. */
        int outranks = (e->ready && e->ready->job->spec.priority < t->job->spec.priority) || wa->urgent;
        if ((e->n_ready + (size_t)e->in_synth >= (size_t)e->o.queue_depth && !outranks) || !reserve_locked(e, t)) {
            pthread_cond_wait(&e->cv_synth, &e->mu);
            continue;
        }
        e->pending = t->next;
        e->in_synth++;
        t->job->pref->in_synth++;
        const czk_witness_source *src = t->job->src;
        e->events[t->ev].synth_start = rel(e);
        e->events[t->ev].synth_worker = wa->index;
        pthread_mutex_unlock(&e->mu);

        czk_status st = CZK_OK;
        const char *what = "synthesis";
        int threads = src->ops->multithreaded ? e->o.synth_threads : 1;
        if (!t->wit) {
            st = src->ops->create(&t->wit, src, &t->sizes);
            if (st != CZK_OK) t->wit = NULL;
            pthread_mutex_lock(&e->mu);
            e->prog.backends_created++;
            pthread_mutex_unlock(&e->mu);
        }
        if (st == CZK_OK)
            st = t->lean ? src->ops->synthesize_witness(t->wit, t->job->spec.data, t->partition, threads)
                         : src->ops->synthesize(t->wit, t->job->spec.data, t->partition, threads);
        if (st == CZK_OK && !e->o.no_check) {
            what = "witness check";
            st = src->ops->check(t->wit, threads);
        }
        if (st == CZK_OK) {
            /* parameters of another circuit fail here, before a prover pass */
            czk_cs_assignment w;
            what = "parameters";
            st = src->ops->get(t->wit, &w);
            if (st == CZK_OK) st = czk_groth16_params_match(t->job->spec.params, &w);
        }
        char msg[400] = "";
        if (st != CZK_OK) snprintf(msg, sizeof msg, "%s", czk_last_error());

        pthread_mutex_lock(&e->mu);
        e->in_synth--;
        t->job->pref->in_synth--;
        czk_engine_event *ev = &e->events[t->ev];
        ev->synth_end = rel(e);
        ev->status = st;
        if (st != CZK_OK) {
            job_fail_locked(t->job, st, what, t->partition, msg);
            task_finished_locked(e, t);
        } else if (t->job->failed) { /* cancelled (or failed) meanwhile: not worth proving */
            ev->status = t->job->status;
            task_finished_locked(e, t);
        } else {
            e->prog.tasks_synthesized++;
            insert_sorted(&e->ready, t);
            e->n_ready++;
            pthread_cond_broadcast(&e->cv_prove);
        }
        progress_locked(e);
    }
    pthread_mutex_unlock(&e->mu);
    czk_lc_pool_trim(); /* this thread's pooled LC buffers die with it */
    return NULL;
}

/* ---- prover workers ------------------------------------------------------------------ */

static void deadline_after(struct timespec *ts, double s)
{
    clock_gettime(CLOCK_MONOTONIC, ts);
    long ns = ts->tv_nsec + (long)(s * 1e9);
    ts->tv_sec += ns / 1000000000L;
    ts->tv_nsec = ns % 1000000000L;
}

/* A streamed pass's a, b, c from the task's witness source (fill). */
typedef struct fill_relay_ctx {
    const czk_witness_ops *ops;
    czk_witness *w;
    int threads;
} fill_relay_ctx;

static czk_status fill_relay(void *ctx, int which, czk_fr *out, size_t m)
{
    const fill_relay_ctx *f = ctx;
    return f->ops->fill(f->w, which, out, m, f->threads);
}

typedef struct pass_ctx {
    czk_engine *e;
    uint64_t job;
    uint32_t partition;
} pass_ctx;

/* A streamed pass's progress: the fraction of its parameters read. */
static void pass_progress(void *ctx, const char *stage, double fraction)
{
    (void)stage;
    const pass_ctx *pc = ctx;
    czk_engine *e = pc->e;
    pthread_mutex_lock(&e->mu);
    e->prog.pass_job = pc->job;
    e->prog.pass_partition = pc->partition;
    e->prog.pass_fraction = fraction;
    czk_engine_progress snap;
    uint64_t seq = progress_snapshot_locked(e, &snap);
    pthread_mutex_unlock(&e->mu);
    progress_deliver(e, &snap, seq);
}

/* One task with streamed parameters: the streamed prover, a, b, c from the
 * source's fill when the witness was made alone; its reading figures in ev
 * (the caller's lock is not held). */
static czk_status prove_streamed_task(czk_engine *e, task *u, const czk_cs_assignment *w, czk_groth16_proof *out,
                                      czk_rng *rng, czk_engine_event *ev_out)
{
    fill_relay_ctx fr = {u->job->src->ops, u->wit, e->o.prove_threads};
    pass_ctx pc = {e, u->job->id, u->partition};
    czk_groth16_stream_opts so;
    memset(&so, 0, sizeof so);
    so.threads = e->o.prove_threads;
    so.rng = rng;
    if (u->lean) so.fill = fill_relay, so.fill_ctx = &fr;
    so.progress = pass_progress;
    so.progress_ctx = &pc;
    czk_groth16_stream_stats stats;
    czk_groth16_read_info info;
    memset(&stats, 0, sizeof stats);
    memset(&info, 0, sizeof info);
    so.stats = &stats;
    so.info = &info;
    czk_status st = czk_groth16_prove_streamed(out, u->job->spec.params, w, &so);
    ev_out->streamed = 1;
    ev_out->lean = u->lean;
    ev_out->params_check = (int)info.ran;
    ev_out->params_bytes_read = stats.bytes_read;
    ev_out->params_read_s = stats.read_s;
    return st;
}

static void *prove_main(void *arg)
{
    worker_arg *wa = arg;
    czk_engine *e = wa->e;
    lower_own_priority(e, wa);
    int B = e->o.batch;
    task **batch = malloc((size_t)B * sizeof *batch);
    czk_cs_assignment *ws = malloc((size_t)B * sizeof *ws);
    const czk_cs_assignment **wp = malloc((size_t)B * sizeof *wp);
    czk_groth16_proof *proofs = malloc((size_t)B * sizeof *proofs);
    if (!batch || !ws || !wp || !proofs) B = 0; /* degrade: handled below */
    double wait_since = -1;
    pthread_mutex_lock(&e->mu);
    for (;;) {
        while (e->ready && e->ready->job->failed) { /* the job already failed */
            task *c = e->ready;
            e->ready = c->next;
            e->n_ready--;
            e->events[c->ev].status = c->job->status;
            task_finished_locked(e, c);
        }
        task *t = e->ready;
        if (t && wa->urgent && t->job->spec.priority < e->o.urgent_priority) t = NULL;
        if (!t) {
            if (e->stopping && !e->pending && e->in_synth == 0 && !e->ready) break;
            wait_since = -1;
            pthread_cond_wait(&e->cv_prove, &e->mu);
            continue;
        }
        const czk_groth16_params *P = t->job->spec.params;
        size_t same = 0;
        for (task *u = e->ready; u; u = u->next)
            if (u->job->spec.params == P) same++;
        if (B > 1 && same < (size_t)B && t->job->pref->in_synth > 0) {
            double now = rel(e);
            if (wait_since < 0) wait_since = now;
            if (now - wait_since < e->o.batch_timeout_s) {
                struct timespec ts;
                deadline_after(&ts, e->o.batch_timeout_s - (now - wait_since));
                pthread_cond_timedwait(&e->cv_prove, &e->mu, &ts);
                continue;
            }
        }
        wait_since = -1;
        size_t n = 0;
        const int streamed = czk_groth16_params_streamed(P);
        int cap = B > 0 && !streamed ? B : 1; /* a streamed pass proves one task */
        task **pp = &e->ready;
        task *single = NULL;
        while (*pp && n < (size_t)cap) {
            task *u = *pp;
            if (u->job->spec.params == P && (!wa->urgent || u->job->spec.priority >= e->o.urgent_priority)) {
                *pp = u->next;
                e->n_ready--;
                if (B > 0)
                    batch[n] = u;
                else
                    single = u;
                n++;
            } else {
                pp = &u->next;
            }
        }
        if (B == 0) {
            job_fail_locked(single->job, CZK_ERR_NOMEM, "prove", single->partition, "prover batch arrays");
            task_finished_locked(e, single);
            continue;
        }
        pthread_cond_broadcast(&e->cv_synth); /* the ready queue shrank */
        pthread_cond_broadcast(&e->cv_prove); /* (an urgent-lane prover may be waiting on it) */
        double ts0 = rel(e);
        for (size_t i = 0; i < n; i++) {
            czk_engine_event *ev = &e->events[batch[i]->ev];
            ev->prove_start = ts0;
            ev->prove_worker = wa->index;
            ev->batch = (int)n;
        }
        czk_rng local, *rng = NULL;
        if (e->rng) {
            czk_rng_seed(&local, czk_rng_u64(e->rng));
            rng = &local;
        }
        pthread_mutex_unlock(&e->mu);

        /* cancelled / mismatched tasks fail alone; the rest are proven together */
        czk_status st_each[CZK_ENGINE_MAX_BATCH];
        size_t m = 0;
        for (size_t i = 0; i < n; i++) {
            task *u = batch[i];
            czk_status st = u->job->src->ops->get(u->wit, &ws[i]);
            if (st == CZK_OK) st = czk_groth16_params_match(P, &ws[i]);
            st_each[i] = st;
            if (st == CZK_OK) wp[m++] = &ws[i];
        }
        char msgs[400] = "";
        czk_status bst = CZK_OK;
        czk_engine_event sev;
        memset(&sev, 0, sizeof sev);
        if (m > 0 && streamed) {
            bst = prove_streamed_task(e, batch[0], wp[0], proofs, rng, &sev);
            if (bst != CZK_OK) snprintf(msgs, sizeof msgs, "%s", czk_last_error());
        } else if (m > 0) {
            bst = czk_groth16_prove_batch(proofs, P, wp, m,
                                          &(czk_groth16_prove_opts){.threads = e->o.prove_threads, .rng = rng});
            if (bst != CZK_OK) snprintf(msgs, sizeof msgs, "%s", czk_last_error());
        }
        if (rng) czk_rng_clear(&local);

        pthread_mutex_lock(&e->mu);
        double ts1 = rel(e);
        size_t k = 0;
        for (size_t i = 0; i < n; i++) {
            task *u = batch[i];
            czk_status st = st_each[i];
            czk_engine_event *ev = &e->events[u->ev];
            ev->prove_end = ts1;
            if (streamed) {
                ev->streamed = 1;
                ev->lean = u->lean;
                ev->params_check = sev.params_check;
                ev->params_bytes_read = sev.params_bytes_read;
                ev->params_read_s = sev.params_read_s;
            }
            if (st == CZK_OK) {
                st = bst;
                if (st == CZK_OK) u->job->proofs[u->index] = proofs[k];
                k++;
                if (st != CZK_OK) job_fail_locked(u->job, st, "prove", u->partition, msgs);
            } else {
                job_fail_locked(u->job, st, "parameters", u->partition, "the parameters do not fit this witness");
            }
            ev->status = st;
            if (st == CZK_OK) e->prog.tasks_proven++;
            task_finished_locked(e, u);
        }
        progress_locked(e);
    }
    pthread_mutex_unlock(&e->mu);
    free(batch);
    free(ws);
    free(wp);
    free(proofs);
    return NULL;
}

/* ---- assembler ------------------------------------------------------------------ */

static czk_status verify_job(job *j, char *msg, size_t msg_len, uint32_t *bad_part)
{
    const czk_groth16_params *p = j->spec.params;
    size_t n = p->vk.n_ic - 1, np = j->spec.n_partitions;
    *bad_part = 0;
    czk_fr *inputs = malloc((np * n + 1) * sizeof(czk_fr));
    if (!inputs) {
        snprintf(msg, msg_len, "public inputs: out of memory");
        return CZK_ERR_NOMEM;
    }
    czk_status st = CZK_OK;
    for (size_t i = 0; i < np && st == CZK_OK; i++) {
        st = j->spec.circuit->public_inputs(inputs + i * n, n, j->spec.data, j->parts[i]);
        if (st != CZK_OK) {
            *bad_part = j->parts[i];
            snprintf(msg, msg_len, "public inputs: %s", czk_last_error());
        }
    }
    czk_groth16_pvk pvk;
    if (st == CZK_OK) {
        st = czk_groth16_pvk_prepare(&pvk, &p->vk);
        if (st != CZK_OK) snprintf(msg, msg_len, "verifying key: %s", czk_last_error());
    }
    if (st == CZK_OK) {
        st = np == 1 ? czk_groth16_verify(&pvk, j->proofs, inputs, n)
                     : czk_groth16_verify_batch(&pvk, j->proofs, np, inputs, n, NULL);
        if (st != CZK_OK) {
            /* name the partition */
            for (size_t i = 0; i < np; i++) {
                if (czk_groth16_verify(&pvk, &j->proofs[i], inputs + i * n, n) != CZK_OK) {
                    *bad_part = j->parts[i];
                    break;
                }
            }
            snprintf(msg, msg_len, "the proof does not verify (%s)", czk_last_error());
        }
    }
    free(inputs);
    return st;
}

static void *asm_main(void *arg)
{
    czk_engine *e = arg;
    pthread_mutex_lock(&e->mu);
    for (;;) {
        job *j = e->asm_head;
        if (!j) {
            if (e->stopping && !e->pending && e->in_synth == 0 && !e->ready && e->n_ready == 0) {
                /* nothing can reach the assembler any more once provers drain */
                int busy = 0;
                for (job *x = e->jobs; x; x = x->next)
                    if (!x->done) busy = 1;
                if (!busy) break;
            }
            pthread_cond_wait(&e->cv_asm, &e->mu);
            continue;
        }
        e->asm_head = j->asm_next;
        if (!e->asm_head) e->asm_tail = NULL;
        int do_verify = !j->failed && !e->o.no_verify;
        j->verify_start = rel(e);
        pthread_mutex_unlock(&e->mu);

        char msg[480] = "";
        uint32_t bad = 0;
        czk_status st = do_verify ? verify_job(j, msg, sizeof msg, &bad) : CZK_OK;

        pthread_mutex_lock(&e->mu);
        j->verify_end = rel(e);
        if (st != CZK_OK) job_fail_locked(j, st, "verification", bad, msg);
        j->verified = do_verify && st == CZK_OK;
        j->done = 1;
        e->prog.jobs_done++;
        if (j->failed) e->prog.jobs_failed++;
        if (e->n_spans == e->cap_spans) {
            size_t nc = e->cap_spans ? 2 * e->cap_spans : 64;
            job_span *ns = realloc(e->spans, nc * sizeof *ns);
            if (ns) e->spans = ns, e->cap_spans = nc;
        }
        if (e->n_spans < e->cap_spans) {
            job_span *sp = &e->spans[e->n_spans++];
            sp->id = j->id;
            sp->start = j->verify_start;
            sp->end = j->verify_end;
            sp->status = j->failed ? (int)j->status : (int)CZK_OK;
        }
        pthread_cond_broadcast(&e->cv_done);
        pthread_cond_broadcast(&e->cv_asm);
        progress_locked(e);
    }
    pthread_mutex_unlock(&e->mu);
    czk_lc_pool_trim(); /* circuits' public_inputs may have built LCs */
    return NULL;
}

/* ---- lifecycle ---------------------------------------------------------------------- */

static void free_job(job *j)
{
    free(j->parts);
    free(j->tasks);
    free(j->proofs);
    free(j);
}

czk_status czk_engine_create(czk_engine **out, const czk_engine_opts *opts)
{
    czk_init();
    *out = NULL;
    czk_engine *e = calloc(1, sizeof *e);
    if (!e) return czk_error(CZK_ERR_NOMEM, "engine");
    resolve_opts(&e->o, opts);
    if (e->o.trace_path) {
        e->trace_path = strdup(e->o.trace_path);
        if (!e->trace_path) {
            free(e);
            return czk_error(CZK_ERR_NOMEM, "engine trace path");
        }
    }
    e->o.trace_path = NULL;
    e->rng = e->o.rng;
    e->budget = e->o.memory_budget;
    e->t0 = czk_now();
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_mutex_init(&e->mu, NULL);
    pthread_mutex_init(&e->cb_mu, NULL);
    pthread_cond_init(&e->cv_synth, NULL);
    pthread_cond_init(&e->cv_prove, &ca);
    pthread_cond_init(&e->cv_asm, NULL);
    pthread_cond_init(&e->cv_done, NULL);
    pthread_condattr_destroy(&ca);
    e->prog.memory_budget = e->budget;
    e->prog.pass_fraction = -1;

    /* the urgent lane: one more worker of each stage */
    const int lane = e->o.urgent_priority > 0;
    e->n_synth = e->o.synth_workers + lane;
    e->n_prove = e->o.prove_workers + lane;
    e->synth_threads = calloc((size_t)e->n_synth, sizeof(pthread_t));
    e->prove_threads = calloc((size_t)e->n_prove, sizeof(pthread_t));
    e->synth_args = calloc((size_t)e->n_synth, sizeof(worker_arg));
    e->prove_args = calloc((size_t)e->n_prove, sizeof(worker_arg));
    czk_status st = CZK_OK;
    if (!e->synth_threads || !e->prove_threads || !e->synth_args || !e->prove_args)
        st = czk_error(CZK_ERR_NOMEM, "engine worker arrays");
    for (int i = 0; st == CZK_OK && i < e->n_synth; i++) {
        e->synth_args[i].e = e;
        e->synth_args[i].index = i;
        e->synth_args[i].urgent = i >= e->o.synth_workers;
        if (pthread_create(&e->synth_threads[i], NULL, synth_main, &e->synth_args[i]) != 0)
            st = czk_error(CZK_ERR_NOMEM, "engine: starting synthesis worker %d", i);
        else
            e->n_synth_started++;
    }
    for (int i = 0; st == CZK_OK && i < e->n_prove; i++) {
        e->prove_args[i].e = e;
        e->prove_args[i].index = i;
        e->prove_args[i].urgent = i >= e->o.prove_workers;
        if (pthread_create(&e->prove_threads[i], NULL, prove_main, &e->prove_args[i]) != 0)
            st = czk_error(CZK_ERR_NOMEM, "engine: starting prover worker %d", i);
        else
            e->n_prove_started++;
    }
    if (st == CZK_OK) {
        if (pthread_create(&e->asm_thread, NULL, asm_main, e) != 0)
            st = czk_error(CZK_ERR_NOMEM, "engine: starting the assembler");
        else
            e->asm_started = 1;
    }
    if (st != CZK_OK) {
        czk_engine_destroy(e);
        return st;
    }
    *out = e;
    return CZK_OK;
}

/* The shared-resource entry of key (created with `bytes`); NULL: out of memory. */
static res_ref *ref_get_locked(czk_engine *e, const void *key, uint64_t bytes)
{
    res_ref *r = e->refs;
    while (r && r->key != key) r = r->next;
    if (r) return r;
    r = calloc(1, sizeof *r);
    if (!r) return NULL;
    r->key = key;
    r->bytes = bytes;
    r->next = e->refs;
    e->refs = r;
    return r;
}

/* The engine's PROVE-backend source for a circuit; NULL: out of memory. */
static const czk_witness_source *own_source_locked(czk_engine *e, const czk_engine_circuit *c)
{
    own_source *o = e->own;
    while (o && o->circuit != c) o = o->next;
    if (o) return &o->src;
    o = calloc(1, sizeof *o);
    if (!o) return NULL;
    if (czk_witness_source_cs(&o->src, c->synthesize, e->o.lc) != CZK_OK) {
        free(o);
        czk_error_clear();
        return NULL;
    }
    o->circuit = c;
    o->next = e->own;
    e->own = o;
    return &o->src;
}

czk_status czk_engine_submit(czk_engine *e, uint64_t *id, const czk_engine_job *spec)
{
    CZK_TRY(check_job(spec));
    uint32_t np = spec->n_partitions;
    job *j = calloc(1, sizeof *j);
    czk_cs_sizes *sizes = malloc(np * sizeof *sizes);
    uint64_t *wb = malloc(np * sizeof *wb), *pb = malloc(np * sizeof *pb);
    if (j) {
        j->parts = malloc(np * sizeof *j->parts);
        j->tasks = calloc(np, sizeof *j->tasks);
        j->proofs = calloc(np, sizeof *j->proofs);
    }
    czk_status st = CZK_OK;
    if (!j || !sizes || !wb || !pb || !j->parts || !j->tasks || !j->proofs)
        st = czk_error(CZK_ERR_NOMEM, "engine job of %u partitions", np);
    uint64_t max_task = 0;
    if (st == CZK_OK) st = job_task_sizes(spec, &e->o, sizes, wb, pb, &max_task);
    uint64_t pbytes = czk_engine_params_bytes(spec->params);
    uint64_t sbytes = spec->source ? spec->source->shared_bytes : 0;
    if (st == CZK_OK && max_task + pbytes + sbytes > e->budget)
        st = czk_error(CZK_ERR_NOMEM,
                       "engine job '%s': a task needs %llu bytes (witness + prover scratch) plus %llu of "
                       "parameters and %llu of the witness source's shared data, more than the memory budget of "
                       "%llu bytes",
                       spec->name ? spec->name : "", (unsigned long long)max_task, (unsigned long long)pbytes,
                       (unsigned long long)sbytes, (unsigned long long)e->budget);
    if (st != CZK_OK) {
        if (j) free_job(j);
        free(sizes);
        free(wb);
        free(pb);
        return st;
    }
    j->spec = *spec;
    for (uint32_t i = 0; i < np; i++) j->parts[i] = spec->partitions ? spec->partitions[i] : i;
    j->spec.partitions = j->parts;
    j->status = CZK_OK;

    pthread_mutex_lock(&e->mu);
    if (e->stopping) {
        pthread_mutex_unlock(&e->mu);
        free_job(j);
        free(sizes);
        free(wb);
        free(pb);
        return czk_error(CZK_ERR_INVALID_ARG, "engine: submit after shutdown began");
    }
    if (e->n_events + np > e->cap_events) {
        size_t nc = e->cap_events ? e->cap_events : 64;
        while (nc < e->n_events + np) nc *= 2;
        czk_engine_event *ne = realloc(e->events, nc * sizeof *ne);
        if (!ne) {
            pthread_mutex_unlock(&e->mu);
            free_job(j);
            free(sizes);
            free(wb);
            free(pb);
            return czk_error(CZK_ERR_NOMEM, "engine timeline");
        }
        e->events = ne;
        e->cap_events = nc;
    }
    j->pref = ref_get_locked(e, spec->params, pbytes);
    j->src = spec->source ? spec->source : own_source_locked(e, spec->circuit);
    j->sref = NULL;
    if (j->src && j->src->shared_bytes) j->sref = ref_get_locked(e, j->src, j->src->shared_bytes);
    if (!j->pref || !j->src || (j->src->shared_bytes && !j->sref)) {
        pthread_mutex_unlock(&e->mu);
        free_job(j);
        free(sizes);
        free(wb);
        free(pb);
        return czk_error(CZK_ERR_NOMEM, "engine: parameter / witness source entries");
    }
    j->id = ++e->next_job_id;
    double tq = rel(e);
    for (uint32_t i = 0; i < np; i++) {
        task *t = &j->tasks[i];
        t->job = j;
        t->partition = j->parts[i];
        t->index = i;
        t->seq = e->next_seq++;
        t->sizes = sizes[i];
        t->witness_bytes = wb[i];
        t->prove_bytes = pb[i];
        t->lean = job_lean(spec);
        t->ev = e->n_events++;
        czk_engine_event *ev = &e->events[t->ev];
        memset(ev, 0, sizeof *ev);
        ev->job = j->id;
        ev->partition = t->partition;
        ev->priority = spec->priority;
        ev->synth_worker = ev->prove_worker = -1;
        ev->queued = tq;
        ev->synth_start = ev->synth_end = ev->prove_start = ev->prove_end = -1;
        insert_sorted(&e->pending, t);
    }
    j->next = e->jobs;
    e->jobs = j;
    e->prog.tasks_total += np;
    e->prog.jobs_total++;
    *id = j->id;
    pthread_cond_broadcast(&e->cv_synth);
    czk_engine_progress snap;
    uint64_t seq = progress_snapshot_locked(e, &snap);
    pthread_mutex_unlock(&e->mu);
    progress_deliver(e, &snap, seq);
    free(sizes);
    free(wb);
    free(pb);
    return CZK_OK;
}

czk_status czk_engine_wait(czk_engine *e, uint64_t id, czk_groth16_proof *proofs, size_t n)
{
    pthread_mutex_lock(&e->mu);
    job **pp = &e->jobs;
    while (*pp && (*pp)->id != id) pp = &(*pp)->next;
    if (!*pp) {
        pthread_mutex_unlock(&e->mu);
        return czk_error(CZK_ERR_INVALID_ARG, "engine: no job %llu (unknown or already waited)",
                         (unsigned long long)id);
    }
    job *j = *pp;
    while (!j->done) pthread_cond_wait(&e->cv_done, &e->mu);
    /* the list may have changed while waiting */
    pp = &e->jobs;
    while (*pp != j) pp = &(*pp)->next;
    *pp = j->next;
    pthread_mutex_unlock(&e->mu);
    czk_status st;
    if (j->failed) {
        st = czk_error(j->status, "%s", j->msg);
    } else if (n != j->spec.n_partitions) {
        st = czk_error(CZK_ERR_INVALID_ARG, "engine_wait: job %llu has %u partitions, room for %zu",
                       (unsigned long long)id, j->spec.n_partitions, n);
    } else {
        if (proofs) memcpy(proofs, j->proofs, n * sizeof *proofs);
        st = CZK_OK;
    }
    free_job(j);
    return st;
}

/* Unlink and finish every task of j in *list; returns how many. */
static uint32_t drop_tasks_locked(czk_engine *e, task **list, const job *j, size_t *count)
{
    uint32_t n = 0;
    for (task **pp = list; *pp;) {
        task *t = *pp;
        if (t->job == j) {
            *pp = t->next;
            if (count) (*count)--;
            e->events[t->ev].status = j->status;
            task_finished_locked(e, t);
            n++;
        } else {
            pp = &t->next;
        }
    }
    return n;
}

czk_status czk_engine_cancel(czk_engine *e, uint64_t id, int *running)
{
    if (running) *running = 0;
    pthread_mutex_lock(&e->mu);
    job *j = e->jobs;
    while (j && j->id != id) j = j->next;
    if (!j) {
        pthread_mutex_unlock(&e->mu);
        return czk_error(CZK_ERR_NOT_FOUND, "engine: no job %llu", (unsigned long long)id);
    }
    if (j->done || j->failed || j->n_finished == j->spec.n_partitions) {
        pthread_mutex_unlock(&e->mu);
        return CZK_OK;
    }
    j->failed = 1;
    j->status = CZK_ERR_CANCELLED;
    snprintf(j->msg, sizeof j->msg, "job %llu%s%s%s: cancelled", (unsigned long long)j->id,
             j->spec.name ? " (" : "", j->spec.name ? j->spec.name : "", j->spec.name ? ")" : "");
    uint32_t queued = drop_tasks_locked(e, &e->pending, j, NULL);
    drop_tasks_locked(e, &e->ready, j, &e->n_ready);
    /* it had started unless every task was still queued */
    if (running) *running = queued < j->spec.n_partitions;
    pthread_cond_broadcast(&e->cv_synth);
    pthread_cond_broadcast(&e->cv_prove);
    czk_engine_progress snap;
    uint64_t seq = progress_snapshot_locked(e, &snap);
    pthread_mutex_unlock(&e->mu);
    progress_deliver(e, &snap, seq);
    return CZK_OK;
}

czk_status czk_engine_source_keep(czk_engine *e, const czk_witness_source *src)
{
    if (!e || !src) return czk_error(CZK_ERR_INVALID_ARG, "czk_engine_source_keep: NULL");
    kept_source *k = malloc(sizeof *k);
    if (!k) return czk_error(CZK_ERR_NOMEM, "engine: kept source");
    pthread_mutex_lock(&e->mu);
    int have = source_is_own(e, src);
    if (!have) {
        k->src = src;
        k->next = e->kept;
        e->kept = k;
    }
    pthread_mutex_unlock(&e->mu);
    if (have) free(k);
    return CZK_OK;
}

void czk_engine_source_release(czk_engine *e, const czk_witness_source *src)
{
    if (!e || !src) return;
    pthread_mutex_lock(&e->mu);
    for (kept_source **kp = &e->kept; *kp; kp = &(*kp)->next)
        if ((*kp)->src == src) {
            kept_source *k = *kp;
            *kp = k->next;
            free(k);
            break;
        }
    purge_source_locked(e, src);
    pthread_mutex_unlock(&e->mu);
}

void czk_engine_destroy(czk_engine *e)
{
    if (!e) return;
    pthread_mutex_lock(&e->mu);
    e->stopping = 1;
    pthread_cond_broadcast(&e->cv_synth);
    pthread_cond_broadcast(&e->cv_prove);
    pthread_cond_broadcast(&e->cv_asm);
    pthread_mutex_unlock(&e->mu);
    for (int i = 0; i < e->n_synth_started; i++) pthread_join(e->synth_threads[i], NULL);
    /* provers exit once synthesis is drained; wake them */
    pthread_mutex_lock(&e->mu);
    pthread_cond_broadcast(&e->cv_prove);
    pthread_mutex_unlock(&e->mu);
    for (int i = 0; i < e->n_prove_started; i++) pthread_join(e->prove_threads[i], NULL);
    pthread_mutex_lock(&e->mu);
    pthread_cond_broadcast(&e->cv_asm);
    pthread_mutex_unlock(&e->mu);
    if (e->asm_started) pthread_join(e->asm_thread, NULL);
    if (e->trace_path && czk_engine_write_trace(e, e->trace_path) != CZK_OK)
        fprintf(stderr, "czk: engine trace: %s\n", czk_last_error());
    while (e->jobs) {
        job *j = e->jobs;
        e->jobs = j->next;
        free_job(j);
    }
    while (e->refs) {
        res_ref *r = e->refs;
        e->refs = r->next;
        free(r);
    }
    while (e->pool) {
        pooled_wit *pw = e->pool;
        e->pool = pw->next;
        pooled_free(pw);
    }
    while (e->kept) {
        kept_source *k = e->kept;
        e->kept = k->next;
        free(k);
    }
    while (e->own) {
        own_source *o = e->own;
        e->own = o->next;
        czk_witness_source_close(&o->src);
        free(o);
    }
    pthread_mutex_destroy(&e->mu);
    pthread_mutex_destroy(&e->cb_mu);
    pthread_cond_destroy(&e->cv_synth);
    pthread_cond_destroy(&e->cv_prove);
    pthread_cond_destroy(&e->cv_asm);
    pthread_cond_destroy(&e->cv_done);
    free(e->synth_threads);
    free(e->prove_threads);
    free(e->synth_args);
    free(e->prove_args);
    free(e->events);
    free(e->spans);
    free(e->trace_path);
    free(e);
}

/* ---- observability ------------------------------------------------------------------ */

czk_status czk_engine_events(const czk_engine *e, czk_engine_event **out, size_t *n)
{
    czk_engine *m = (czk_engine *)e;
    *out = NULL;
    *n = 0;
    pthread_mutex_lock(&m->mu);
    czk_status st = CZK_OK;
    if (m->n_events) {
        *out = malloc(m->n_events * sizeof **out);
        if (*out) {
            memcpy(*out, m->events, m->n_events * sizeof **out);
            *n = m->n_events;
        } else {
            st = czk_error(CZK_ERR_NOMEM, "engine events copy");
        }
    }
    pthread_mutex_unlock(&m->mu);
    return st;
}

czk_status czk_engine_job_events(const czk_engine *e, uint64_t id, czk_engine_event **out, size_t *n)
{
    czk_engine *m = (czk_engine *)e;
    *out = NULL;
    *n = 0;
    pthread_mutex_lock(&m->mu);
    size_t k = 0;
    for (size_t i = 0; i < m->n_events; i++) k += m->events[i].job == id;
    czk_status st = CZK_OK;
    if (k) {
        *out = malloc(k * sizeof **out);
        if (*out) {
            for (size_t i = 0; i < m->n_events; i++)
                if (m->events[i].job == id) (*out)[(*n)++] = m->events[i];
        } else {
            st = czk_error(CZK_ERR_NOMEM, "engine events of job %llu", (unsigned long long)id);
        }
    }
    pthread_mutex_unlock(&m->mu);
    return st;
}

void czk_engine_forget(czk_engine *e, uint64_t id)
{
    pthread_mutex_lock(&e->mu);
    for (job *j = e->jobs; j; j = j->next)
        if (j->id == id) { /* not waited yet: its tasks still point into the timeline */
            pthread_mutex_unlock(&e->mu);
            return;
        }
    /* compact: live tasks' indices move with their entries */
    size_t *map = malloc((e->n_events ? e->n_events : 1) * sizeof *map);
    if (!map) {
        pthread_mutex_unlock(&e->mu);
        return; /* the entries stay; nothing is lost but memory */
    }
    size_t w = 0;
    for (size_t i = 0; i < e->n_events; i++) {
        map[i] = w;
        if (e->events[i].job != id) e->events[w++] = e->events[i];
    }
    for (job *j = e->jobs; j; j = j->next)
        for (uint32_t t = 0; t < j->spec.n_partitions; t++) j->tasks[t].ev = map[j->tasks[t].ev];
    e->n_events = w;
    free(map);
    w = 0;
    for (size_t i = 0; i < e->n_spans; i++)
        if (e->spans[i].id != id) e->spans[w++] = e->spans[i];
    e->n_spans = w;
    pthread_mutex_unlock(&e->mu);
}

void czk_engine_progress_get(const czk_engine *e, czk_engine_progress *out)
{
    czk_engine *m = (czk_engine *)e;
    pthread_mutex_lock(&m->mu);
    *out = m->prog;
    out->memory_used = m->used;
    out->memory_budget = m->budget;
    out->ready = m->n_ready;
    out->elapsed_s = rel(m);
    pthread_mutex_unlock(&m->mu);
}

uint64_t czk_engine_peak_reserved(const czk_engine *e)
{
    czk_engine *m = (czk_engine *)e;
    pthread_mutex_lock(&m->mu);
    uint64_t p = m->peak;
    pthread_mutex_unlock(&m->mu);
    return p;
}

/* Chrome trace event format: "X" complete events (ts, dur in microseconds)
 * on one track per worker, "b"/"e" async events for the queue waits. */
static void emit_x(FILE *f, int *first, const char *name, const char *cat, int tid, double s, double e2,
                   const czk_engine_event *ev)
{
    if (s < 0 || e2 < 0) return;
    fprintf(f, "%s\n{\"name\":\"%s\",\"cat\":\"%s\",\"ph\":\"X\",\"pid\":1,\"tid\":%d,\"ts\":%.3f,\"dur\":%.3f",
            *first ? "" : ",", name, cat, tid, s * 1e6, (e2 - s) * 1e6);
    if (ev)
        fprintf(f, ",\"args\":{\"job\":%llu,\"partition\":%u,\"priority\":%d,\"batch\":%d,\"status\":%d}",
                (unsigned long long)ev->job, ev->partition, ev->priority, ev->batch, ev->status);
    fputc('}', f);
    *first = 0;
}

static void emit_async(FILE *f, const char *name, size_t id, double s, double e2)
{
    if (s < 0 || e2 < 0) return;
    fprintf(f, ",\n{\"name\":\"%s\",\"cat\":\"queue\",\"ph\":\"b\",\"pid\":1,\"tid\":0,\"id\":%zu,\"ts\":%.3f}", name,
            id, s * 1e6);
    fprintf(f, ",\n{\"name\":\"%s\",\"cat\":\"queue\",\"ph\":\"e\",\"pid\":1,\"tid\":0,\"id\":%zu,\"ts\":%.3f}", name,
            id, e2 * 1e6);
}

czk_status czk_engine_write_trace(const czk_engine *e, const char *path)
{
    czk_engine *m = (czk_engine *)e;
    czk__afile af;
    FILE *f;
    CZK_TRY(czk__afile_open_stream(&af, &f, path, 0));
    pthread_mutex_lock(&m->mu);
    fprintf(f, "{\"displayTimeUnit\":\"ms\",\"traceEvents\":[");
    int first = 1;
    for (int i = 0; i < m->n_synth; i++) {
        fprintf(f, "%s\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":%d,\"args\":{\"name\":\"synthesis %d%s\"}}",
                first ? "" : ",", 1 + i, i, i >= m->o.synth_workers ? " (urgent lane)" : "");
        first = 0;
    }
    for (int i = 0; i < m->n_prove; i++)
        fprintf(f, ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":%d,\"args\":{\"name\":\"prover %d%s\"}}",
                1000 + i, i, i >= m->o.prove_workers ? " (urgent lane)" : "");
    fprintf(f, ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":2000,\"args\":{\"name\":\"assembler\"}}");
    for (size_t i = 0; i < m->n_events; i++) {
        const czk_engine_event *ev = &m->events[i];
        char name[64];
        snprintf(name, sizeof name, "job %llu p%u", (unsigned long long)ev->job, ev->partition);
        if (ev->synth_worker >= 0)
            emit_x(f, &first, name, "synthesis", 1 + ev->synth_worker, ev->synth_start, ev->synth_end, ev);
        if (ev->prove_worker >= 0)
            emit_x(f, &first, name, "prove", 1000 + ev->prove_worker, ev->prove_start, ev->prove_end, ev);
        char qn[80];
        snprintf(qn, sizeof qn, "%s pending", name);
        emit_async(f, qn, 2 * i, ev->queued, ev->synth_start);
        snprintf(qn, sizeof qn, "%s ready", name);
        emit_async(f, qn, 2 * i + 1, ev->synth_end, ev->prove_start);
    }
    for (size_t i = 0; i < m->n_spans; i++) {
        char name[64];
        snprintf(name, sizeof name, "verify job %llu", (unsigned long long)m->spans[i].id);
        emit_x(f, &first, name, "verify", 2000, m->spans[i].start, m->spans[i].end, NULL);
    }
    fprintf(f, "\n]}\n");
    pthread_mutex_unlock(&m->mu);
    return czk__afile_commit(&af, NULL, 0);
}
