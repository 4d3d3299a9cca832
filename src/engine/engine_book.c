/* The engine's bookkeeping, done with czk_engine.mu held: progress
 * snapshots and their delivery, the queues' order, memory reservations
 * against the budget, the pool of idle witness instances, task and job
 * completion. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "engine/engine_internal.h"

/* The progress callback runs outside mu, so it may call back into the
 * engine (czk_engine_progress_get, _events, _peak_reserved, _write_trace,
 * _submit). Snapshots are numbered under mu; cb_mu serializes the calls and
 * a snapshot older than one already delivered is dropped, so the callback
 * sees the counters in order. A callback re-entered on its own thread (it
 * submitted a job) is called directly: cb_mu is already held there. */
static _Thread_local const czk_engine *tl_in_callback;

uint64_t czk__engine_progress_snapshot_locked(czk_engine *e, czk_engine_progress *out)
{
    e->prog.memory_used = e->used;
    e->prog.memory_budget = e->budget;
    e->prog.ready = e->n_ready;
    e->prog.elapsed_s = rel(e);
    if (!e->o.progress) return 0;
    *out = e->prog;
    return ++e->prog_seq;
}

void czk__engine_progress_deliver(czk_engine *e, const czk_engine_progress *p, uint64_t seq)
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
void czk__engine_progress_locked(czk_engine *e)
{
    czk_engine_progress snap;
    uint64_t seq = czk__engine_progress_snapshot_locked(e, &snap);
    if (seq == 0) return;
    pthread_mutex_unlock(&e->mu);
    czk__engine_progress_deliver(e, &snap, seq);
    pthread_mutex_lock(&e->mu);
}

void czk__engine_insert_sorted(task **head, task *t)
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

void czk__engine_pooled_free(pooled_wit *pw)
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
int czk__engine_reserve_locked(czk_engine *e, task *t)
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
        czk__engine_pooled_free(victim);
    }
}

/* 1 while a job other than `except` with unfinished tasks uses source src. */
static int source_in_use_locked(const czk_engine *e, const czk_witness_source *src, const job *except)
{
    for (const job *x = e->jobs; x; x = x->next)
        if (x != except && x->src == src && x->n_finished < x->spec.n_partitions) return 1;
    return 0;
}

int czk__engine_source_is_own(const czk_engine *e, const czk_witness_source *src)
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
        int keep = czk__engine_source_is_own(e, j->src) || j->n_finished + 1 < j->spec.n_partitions ||
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
void czk__engine_purge_source_locked(czk_engine *e, const czk_witness_source *src)
{
    if (czk__engine_source_is_own(e, src) || source_in_use_locked(e, src, NULL)) return;
    pooled_wit **pp = &e->pool;
    while (*pp) {
        pooled_wit *pw = *pp;
        if (pw->src == src) {
            *pp = pw->next;
            e->used -= pw->cap;
            czk__engine_pooled_free(pw);
        } else {
            pp = &pw->next;
        }
    }
}

void czk__engine_job_fail_locked(job *j, czk_status st, const char *what, uint32_t partition, const char *msg)
{
    if (j->failed) return;
    j->failed = 1;
    j->status = st;
    snprintf(j->msg, sizeof j->msg, "job %llu%s%s%s: partition %u: %s: %s", (unsigned long long)j->id,
             j->spec.name ? " (" : "", j->spec.name ? j->spec.name : "", j->spec.name ? ")" : "", partition,
             what, msg);
}

/* A task is finished (proven, failed or cancelled). */
void czk__engine_task_finished_locked(czk_engine *e, task *t)
{
    job *j = t->job;
    release_locked(e, t);
    if (t->urgent_live) { /* the streamed passes waiting on it go on (cv_prove below) */
        t->urgent_live = 0;
        e->urgent_live--;
    }
    if (++j->n_finished == j->spec.n_partitions) {
        czk__engine_purge_source_locked(e, j->src);
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

