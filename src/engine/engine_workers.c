/* The engine's threads: synthesis workers (pending -> ready), prover
 * workers (ready -> proofs, batched) and the assembler (a job's proofs
 * verified, its waiters woken). Each takes czk_engine.mu to move tasks and
 * releases it for the work itself. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "cs/cs_internal.h"
#include "engine/engine_internal.h"

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

void *czk__engine_synth_main(void *arg)
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
            czk__engine_task_finished_locked(e, t);
            continue;
        }
        /* A task that outranks everything ready is let past queue_depth:
         * otherwise CRITICAL work submitted behind a full ready queue of
         * lower-priority witnesses would wait for the prover to take one of
         * them first, a whole prover pass. One extra witness per priority
         * level at most; the memory reservation still applies. */
        int outranks = (e->ready && e->ready->job->spec.priority < t->job->spec.priority) || wa->urgent;
        if ((e->n_ready + (size_t)e->in_synth >= (size_t)e->o.queue_depth && !outranks) ||
            !czk__engine_reserve_locked(e, t)) {
            pthread_cond_wait(&e->cv_synth, &e->mu);
            continue;
        }
        e->pending = t->next;
        e->in_synth++;
        if (e->o.urgent_priority > 0 && t->job->spec.priority >= e->o.urgent_priority && !t->urgent_live) {
            t->urgent_live = 1;
            e->urgent_live++;
        }
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
        char msg[1024] = "";
        if (st != CZK_OK) snprintf(msg, sizeof msg, "%s", czk_last_error());

        pthread_mutex_lock(&e->mu);
        e->in_synth--;
        t->job->pref->in_synth--;
        czk_engine_event *ev = &e->events[t->ev];
        ev->synth_end = rel(e);
        ev->status = st;
        if (st != CZK_OK) {
            czk__engine_job_fail_locked(t->job, st, what, t->partition, msg);
            czk__engine_task_finished_locked(e, t);
        } else if (t->job->failed) { /* cancelled (or failed) meanwhile: not worth proving */
            ev->status = t->job->status;
            czk__engine_task_finished_locked(e, t);
        } else {
            e->prog.tasks_synthesized++;
            czk__engine_insert_sorted(&e->ready, t);
            e->n_ready++;
            pthread_cond_broadcast(&e->cv_prove);
        }
        czk__engine_progress_locked(e);
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
    int yields_to_urgent; /* the task is below the urgent lane's priority */
    int yields;
    double yield_s;
} pass_ctx;

/* A streamed pass's progress: the fraction of its parameters read. */
static void pass_progress(void *ctx, const char *stage, double fraction)
{
    (void)stage;
    pass_ctx *pc = ctx;
    czk_engine *e = pc->e;
    pthread_mutex_lock(&e->mu);
    e->prog.pass_job = pc->job;
    e->prog.pass_partition = pc->partition;
    e->prog.pass_fraction = fraction;
    /* between two chunks: urgent work (a WinningPoSt beside this WindowPoSt
     * or PoRep partition) gets the cores until it is proven */
    if (pc->yields_to_urgent && e->urgent_live > 0 && fraction < 1.0) {
        double t0 = czk_now();
        pc->yields++;
        while (e->urgent_live > 0) pthread_cond_wait(&e->cv_prove, &e->mu);
        pc->yield_s += czk_now() - t0;
    }
    czk_engine_progress snap;
    uint64_t seq = czk__engine_progress_snapshot_locked(e, &snap);
    pthread_mutex_unlock(&e->mu);
    czk__engine_progress_deliver(e, &snap, seq);
}

/* One task with streamed parameters: the streamed prover, a, b, c from the
 * source's fill when the witness was made alone; its reading figures in ev
 * (the caller's lock is not held). */
static czk_status prove_streamed_task(czk_engine *e, task *u, const czk_cs_assignment *w, czk_groth16_proof *out,
                                      czk_rng *rng, czk_engine_event *ev_out)
{
    fill_relay_ctx fr = {u->job->src->ops, u->wit, e->o.prove_threads};
    pass_ctx pc = {e, u->job->id, u->partition,
                   e->o.urgent_priority > 0 && u->job->spec.priority < e->o.urgent_priority, 0, 0};
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
    ev_out->yields = pc.yields;
    ev_out->yield_s = pc.yield_s;
    return st;
}

void *czk__engine_prove_main(void *arg)
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
            czk__engine_task_finished_locked(e, c);
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
            czk__engine_job_fail_locked(single->job, CZK_ERR_NOMEM, "prove", single->partition, "prover batch arrays");
            czk__engine_task_finished_locked(e, single);
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
        char msgs[1024] = "";
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
                ev->yields = sev.yields;
                ev->yield_s = sev.yield_s;
            }
            if (st == CZK_OK) {
                st = bst;
                if (st == CZK_OK) u->job->proofs[u->index] = proofs[k];
                k++;
                if (st != CZK_OK) czk__engine_job_fail_locked(u->job, st, "prove", u->partition, msgs);
            } else {
                czk__engine_job_fail_locked(u->job, st, "parameters", u->partition,
                                            "the parameters do not fit this witness");
            }
            ev->status = st;
            if (st == CZK_OK) e->prog.tasks_proven++;
            czk__engine_task_finished_locked(e, u);
        }
        czk__engine_progress_locked(e);
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

void *czk__engine_asm_main(void *arg)
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

        char msg[1024] = "";
        uint32_t bad = 0;
        czk_status st = do_verify ? verify_job(j, msg, sizeof msg, &bad) : CZK_OK;

        pthread_mutex_lock(&e->mu);
        j->verify_end = rel(e);
        if (st != CZK_OK) czk__engine_job_fail_locked(j, st, "verification", bad, msg);
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
        czk__engine_progress_locked(e);
    }
    pthread_mutex_unlock(&e->mu);
    czk_lc_pool_trim(); /* circuits' public_inputs may have built LCs */
    return NULL;
}
