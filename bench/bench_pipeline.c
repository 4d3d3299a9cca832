/* czk bench pipeline: N PoRep jobs through the pipelined engine, then the
 * same jobs strictly sequentially (synthesize, prove, verify, one partition
 * at a time), in one invocation. Every proof of both runs is verified. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "progress.h"
#include "czk/porep_kind.h"
#include "shape_opts.h"

#include "czk/czk.h"
#include "czk/engine.h"
#include "czk/porep.h"

static const char usage[] =
    "usage: czk bench pipeline [--sector-size S | --layers L --challenges K --tree B --nodes N\n"
    "                          [--partitions P]] [--jobs N] [-j CONCURRENCY] [--batch B[,B...]]\n"
    "                          [--batch-timeout S] [--synth-workers W] [--prove-workers P]\n"
    "                          [--prove-threads T] [--memory SIZE] [--trace FILE] [--no-sequential]\n"
    "                          [--no-warmup] [--pce off|on|auto[,...]] [--stream-params [--chunk SIZE]]\n"
    "                          [--threads T] [--json] [--quiet]\n\n"
    "Prove N synthetic sectors (czk gen-c1 data, seeds 1..N) through the pipelined engine\n"
    "(synthesis workers || batched provers || verifying assembler), once per --batch value,\n"
    "then the same sectors strictly sequentially (synthesize, prove, one partition at a\n"
    "time, then verify), and report the throughput of each (proofs/min, one proof = one\n"
    "partition), per-stage utilization and overlap of each pipelined run, peak RSS, and the\n"
    "pipeline bound: the largest stage time (synthesis / synthesis workers, proving,\n"
    "verification, each measured in the sequential run) with the fraction of it achieved\n"
    "(above 100% when batching makes proving cheaper than in the sequential run).\n"
    "Every job's proofs are verified by the engine and again by the benchmark. One\n"
    "partition is proven first, outside every measurement (warm-up), unless --no-warmup.\n"
    "Parameters come from the cache of czk setup/prove ($CZK_CACHE_DIR, generated once).\n\n" CZK_SHAPE_USAGE
    "                          (default: --layers 2 --challenges 1 --tree 8 --nodes 64)\n"
    "  --jobs N                sectors to prove (default 4)\n"
    "  -j, --concurrency C     jobs in flight in the pipelined run (default 2)\n"
    "  --batch B[,B...]        partitions per prover pass (default 1); a list runs the\n"
    "                          pipelined measurement once per value (e.g. --batch 1,2)\n"
    "  --batch-timeout S       longest wait of a prover for a fuller batch (default 0.05 s);\n"
    "                          batches form only if it exceeds a partition's synthesis time\n"
    "                          or partitions are already waiting (1-partition sectors: -j > 2)\n"
    "  --synth-workers W       synthesis threads (default max(1, threads/2))\n"
    "  --prove-workers P       prover threads (default 1)\n"
    "  --prove-threads T       OpenMP threads per prover (default: --threads)\n"
    "  --memory SIZE           memory budget, e.g. 16GiB (default: physical memory - margin)\n"
    "  --trace FILE            write the pipelined run's timeline (Chrome trace JSON); with\n"
    "                          several runs, FILE.SOURCE.batchB for each\n"
    "  --pce MODE[,MODE...]    witnesses of the pipelined runs: off (default: full synthesis,\n"
    "                          one partition per synthesis worker), on (pre-compiled\n"
    "                          matrices, built and cached if needed; one worker on every\n"
    "                          thread), auto (on if cached); a list runs each mode, e.g.\n"
    "                          --pce off,on (the sequential run is always full synthesis)\n"
    "  --stream-params         both runs prove with the parameters left on disk, every\n"
    "                          prover pass streaming the file (the sequential run: one\n"
    "                          partition synthesized, checked, proven, then the next); with\n"
    "                          --pce on a pipelined task holds its witness alone\n"
    "  --chunk SIZE            a streamed pass's chunk of points (default 1GiB)\n"
    "  --no-sequential         skip the sequential run\n"
    "  --no-warmup             skip the warm-up proof\n";

#define MAX_RUNS 8

enum {
    OPT_JOBS = CZK_OPT_FIRST_FREE,
    OPT_BATCH,
    OPT_SYNTH,
    OPT_PROVEW,
    OPT_PROVET,
    OPT_MEMORY,
    OPT_TRACE,
    OPT_NOSEQ,
    OPT_NOWARM,
    OPT_BTIMEOUT,
    OPT_PCE,
    OPT_STREAM,
    OPT_CHUNK,
};

typedef struct bopts {
    czk_shape_args shape;
    long long jobs, conc, synth, provew, provet;
    long long batch[MAX_RUNS];
    int n_batch;
    czk_pce_mode pce[3];
    int n_pce;
    double batch_timeout;
    unsigned long long memory;
    const char *trace;
    int no_seq, no_warmup, stream;
    unsigned long long chunk;
} bopts;

static int on_opt(void *ctx, int opt, const char *arg)
{
    bopts *o = ctx;
    int rc;
    if (czk_shape_option(&o->shape, opt, arg, "bench pipeline", usage, &rc)) return rc;
    switch (opt) {
    case OPT_STREAM: o->stream = 1; return 0;
    case OPT_CHUNK:
        if (czk_cli_parse_size(arg, &o->chunk) || o->chunk < (1u << 20))
            return czk_cli_usage_error("bench pipeline", usage, "--chunk wants a size of at least 1MiB, got '%s'", arg);
        return 0;
    case OPT_JOBS:
        if (czk_cli_parse_int(arg, 1, 100000, &o->jobs))
            return czk_cli_usage_error("bench pipeline", usage, "--jobs wants 1..100000, got '%s'", arg);
        return 0;
    case 'j':
        if (czk_cli_parse_int(arg, 1, 1000, &o->conc))
            return czk_cli_usage_error("bench pipeline", usage, "-j wants 1..1000, got '%s'", arg);
        return 0;
    case OPT_BATCH: {
        char buf[128];
        snprintf(buf, sizeof buf, "%s", arg);
        o->n_batch = 0;
        for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
            if (o->n_batch == MAX_RUNS || czk_cli_parse_int(tok, 1, CZK_ENGINE_MAX_BATCH, &o->batch[o->n_batch]))
                return czk_cli_usage_error("bench pipeline", usage,
                                           "--batch wants up to %d values 1..%d separated by commas, got '%s'",
                                           MAX_RUNS, CZK_ENGINE_MAX_BATCH, arg);
            o->n_batch++;
        }
        if (o->n_batch == 0)
            return czk_cli_usage_error("bench pipeline", usage, "--batch wants a value, got '%s'", arg);
        return 0;
    }
    case OPT_PCE: {
        char buf[64];
        snprintf(buf, sizeof buf, "%s", arg);
        o->n_pce = 0;
        for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
            if (o->n_pce == 3 || czk_pce_mode_parse(&o->pce[o->n_pce], tok) != CZK_OK)
                return czk_cli_usage_error("bench pipeline", usage,
                                           "--pce wants up to 3 of off, on, auto separated by commas, got '%s'", arg);
            o->n_pce++;
        }
        if (o->n_pce == 0) return czk_cli_usage_error("bench pipeline", usage, "--pce wants a mode, got '%s'", arg);
        return 0;
    }
    case OPT_BTIMEOUT: {
        char *end;
        double v = strtod(arg, &end);
        if (end == arg || *end || !(v > 0 && v <= 3600))
            return czk_cli_usage_error("bench pipeline", usage, "--batch-timeout wants seconds in (0, 3600], got '%s'",
                                       arg);
        o->batch_timeout = v;
        return 0;
    }
    case OPT_SYNTH:
        if (czk_cli_parse_int(arg, 1, 256, &o->synth))
            return czk_cli_usage_error("bench pipeline", usage, "--synth-workers wants 1..256, got '%s'", arg);
        return 0;
    case OPT_PROVEW:
        if (czk_cli_parse_int(arg, 1, 64, &o->provew))
            return czk_cli_usage_error("bench pipeline", usage, "--prove-workers wants 1..64, got '%s'", arg);
        return 0;
    case OPT_PROVET:
        if (czk_cli_parse_int(arg, 1, 4096, &o->provet))
            return czk_cli_usage_error("bench pipeline", usage, "--prove-threads wants 1..4096, got '%s'", arg);
        return 0;
    case OPT_MEMORY:
        if (czk_cli_parse_size(arg, &o->memory) || o->memory == 0)
            return czk_cli_usage_error("bench pipeline", usage, "--memory wants a size like 16GiB, got '%s'", arg);
        return 0;
    case OPT_TRACE:
        o->trace = arg;
        return 0;
    case OPT_NOSEQ:
        o->no_seq = 1;
        return 0;
    case OPT_NOWARM:
        o->no_warmup = 1;
        return 0;
    }
    return czk_cli_usage_error("bench pipeline", usage, "unexpected option");
}

typedef struct ival {
    double a, b;
} ival;

static int cmp_ival(const void *x, const void *y)
{
    const ival *p = x, *q = y;
    return p->a < q->a ? -1 : p->a > q->a;
}

/* Sort and merge into disjoint intervals; returns the count. */
static size_t merge(ival *v, size_t n)
{
    if (n == 0) return 0;
    qsort(v, n, sizeof *v, cmp_ival);
    size_t k = 0;
    for (size_t i = 1; i < n; i++) {
        if (v[i].a <= v[k].b) {
            if (v[i].b > v[k].b) v[k].b = v[i].b;
        } else {
            v[++k] = v[i];
        }
    }
    return k + 1;
}

static double total_len(const ival *v, size_t n)
{
    double s = 0;
    for (size_t i = 0; i < n; i++) s += v[i].b - v[i].a;
    return s;
}

static double overlap_len(const ival *x, size_t nx, const ival *y, size_t ny)
{
    double s = 0;
    size_t i = 0, j = 0;
    while (i < nx && j < ny) {
        double a = x[i].a > y[j].a ? x[i].a : y[j].a, b = x[i].b < y[j].b ? x[i].b : y[j].b;
        if (b > a) s += b - a;
        if (x[i].b < y[j].b)
            i++;
        else
            j++;
    }
    return s;
}

static void on_progress(void *ctx, const czk_engine_progress *p)
{
    czk_progress *pg = ctx;
    char stage[64];
    snprintf(stage, sizeof stage, "pipeline %llu/%llu proofs", (unsigned long long)p->tasks_proven,
             (unsigned long long)p->tasks_total);
    czk_progress_fraction(pg, stage, p->tasks_total ? (double)p->tasks_proven / (double)p->tasks_total : 0);
}

/* One pipelined measurement. */
typedef struct pipe_run {
    int batch;
    const char *witness; /* the witness source that ran */
    int synth_workers;
    double seconds, proofs_per_min;
    double synth_busy, prove_any, overlap, span; /* seconds */
    double passes;                               /* prover passes */
    uint64_t peak_reserved;
    unsigned long long rss;                      /* peak RSS of the process so far */
} pipe_run;

/* N jobs through an engine with opts eo, at most conc in flight; proofs
 * into pp (njobs x np). */
static czk_status pipelined(pipe_run *r, const czk_engine_opts *eo, const czk_witness_source *src,
                            const czk_fc_c1 *c1, size_t njobs, size_t np, size_t conc,
                            const czk_groth16_params *params, czk_groth16_proof *pp)
{
    uint64_t *ids = calloc(njobs, sizeof *ids);
    if (!ids) return czk_error(CZK_ERR_NOMEM, "job ids");
    czk_engine *e = NULL;
    double t0 = czk_now();
    czk_status st = czk_engine_create(&e, eo);
    size_t submitted = 0, waited = 0;
    while (st == CZK_OK && waited < njobs) {
        while (submitted < njobs && submitted - waited < conc && st == CZK_OK) {
            czk_engine_job j;
            czk_kind_engine_job(&j, &czk_kind_porep, &c1[submitted], params, src, NULL, (uint32_t)np, 0, "sector");
            st = czk_engine_submit(e, &ids[submitted], &j);
            if (st == CZK_OK) submitted++;
        }
        if (st == CZK_OK) st = czk_engine_wait(e, ids[waited], pp + waited * np, np);
        if (st == CZK_OK) waited++;
    }
    r->seconds = czk_now() - t0;
    czk_engine_event *ev = NULL;
    size_t nev = 0;
    if (st == CZK_OK) {
        r->peak_reserved = czk_engine_peak_reserved(e);
        st = czk_engine_events(e, &ev, &nev);
    }
    char msg[700] = "";
    if (st != CZK_OK) snprintf(msg, sizeof msg, "%s", czk_last_error());
    czk_engine_destroy(e); /* writes the trace; no progress callback after this */
    free(ids);
    if (st != CZK_OK) return czk_error(st, "%s", msg);

    ival *si = malloc((nev + 1) * sizeof *si), *pi = malloc((nev + 1) * sizeof *pi);
    if (!si || !pi) {
        free(si);
        free(pi);
        free(ev);
        return czk_error(CZK_ERR_NOMEM, "stage intervals");
    }
    double first = 1e30, last = 0;
    r->synth_busy = 0;
    r->passes = 0;
    for (size_t i = 0; i < nev; i++) {
        si[i].a = ev[i].synth_start;
        si[i].b = ev[i].synth_end;
        pi[i].a = ev[i].prove_start;
        pi[i].b = ev[i].prove_end;
        r->synth_busy += si[i].b - si[i].a;
        if (si[i].a < first) first = si[i].a;
        if (pi[i].b > last) last = pi[i].b;
        if (ev[i].batch > 0) r->passes += 1.0 / ev[i].batch;
    }
    size_t ns = merge(si, nev), npv = merge(pi, nev);
    r->prove_any = total_len(pi, npv);
    r->overlap = overlap_len(si, ns, pi, npv);
    r->span = last > first ? last - first : r->seconds;
    r->proofs_per_min = (double)(njobs * np) / r->seconds * 60;
    r->rss = czk_bench_peak_rss();
    free(si);
    free(pi);
    free(ev);
    return CZK_OK;
}

/* One invocation: the options, the engine's settings as it will use them,
 * the jobs, the parameters and what the runs measured. */
typedef struct bench {
    bopts o;
    czk_fc_shape shape;
    int json;
    FILE *out;
    czk_progress pg;
    czk_engine_opts eo;
    int nt, r_synth, r_provew, r_provet; /* the values the engine will use, for the report */
    double r_timeout;
    uint64_t budget;
    size_t njobs, np, n_c1;
    czk_fc_c1 *c1;
    czk_groth16_proof *pp, *sp; /* the pipelined and the sequential proofs */
    czk_groth16_params params, streamed;
    int have_params, generated;
    char ppath[512];
    czk_cs_sizes sz;
    pipe_run runs[MAX_RUNS];
    int n_runs;
    double seq_synth, seq_prove, seq_verify, t_seq;
} bench;

/* The options, the shape (the small default when none is given), the engine's settings. */
static int setup(bench *B, int argc, char **argv)
{
    bopts *o = &B->o;
    o->jobs = 4;
    o->conc = 2;
    static const struct option opts[] = {CZK_SHAPE_OPTIONS,
                                         {"jobs", required_argument, 0, OPT_JOBS},
                                         {"concurrency", required_argument, 0, 'j'},
                                         {"batch", required_argument, 0, OPT_BATCH},
                                         {"batch-timeout", required_argument, 0, OPT_BTIMEOUT},
                                         {"synth-workers", required_argument, 0, OPT_SYNTH},
                                         {"prove-workers", required_argument, 0, OPT_PROVEW},
                                         {"prove-threads", required_argument, 0, OPT_PROVET},
                                         {"memory", required_argument, 0, OPT_MEMORY},
                                         {"trace", required_argument, 0, OPT_TRACE},
                                         {"no-sequential", no_argument, 0, OPT_NOSEQ},
                                         {"no-warmup", no_argument, 0, OPT_NOWARM},
                                         {"pce", required_argument, 0, OPT_PCE},
                                         {"stream-params", no_argument, 0, OPT_STREAM},
                                         {"chunk", required_argument, 0, OPT_CHUNK},
                                         {0, 0, 0, 0}};
    czk_cli_common common;
    int rc = czk_cli_parse(argc, argv, "bench pipeline", usage, opts, o, on_opt, &common, NULL);
    if (rc != CZK_CLI_CONTINUE) return rc;
    czk_cli_apply_common(&common);
    if (o->n_batch == 0) o->batch[o->n_batch++] = 1;
    if (o->n_pce == 0) o->pce[o->n_pce++] = CZK_PCE_MODE_OFF;
    if (o->n_batch * o->n_pce > MAX_RUNS)
        return czk_cli_usage_error("bench pipeline", usage, "--pce x --batch: at most %d pipelined runs", MAX_RUNS);
    if (!o->shape.have_size && !o->shape.have_custom) {
        o->shape.layers = 2;
        o->shape.challenges = 1;
        o->shape.tree[0] = 8;
        o->shape.nodes = 64;
        o->shape.have_custom = 1;
    }
    if ((rc = czk_shape_resolve(&B->shape, &o->shape, "bench pipeline", usage)) != 0) return rc;
    B->json = common.json;
    B->out = stdout;
    czk_progress_init(&B->pg, czk_cli_progress_enabled(&common));
    czk_engine_opts *eo = &B->eo;
    eo->synth_workers = (int)o->synth;
    eo->prove_workers = (int)o->provew;
    eo->prove_threads = (int)o->provet;
    eo->batch_timeout_s = o->batch_timeout;
    eo->memory_budget = o->memory;
    eo->progress = B->pg.enabled ? on_progress : NULL;
    eo->progress_ctx = &B->pg;
    B->nt = czk_threads();
    B->r_synth = eo->synth_workers > 0 ? eo->synth_workers : (B->nt / 2 > 1 ? B->nt / 2 : 1);
    B->r_provew = eo->prove_workers > 0 ? eo->prove_workers : 1;
    B->r_provet = eo->prove_threads > 0 ? eo->prove_threads : B->nt;
    B->r_timeout = eo->batch_timeout_s > 0 ? eo->batch_timeout_s : 0.05;
    B->budget = eo->memory_budget ? eo->memory_budget : czk_engine_default_budget();
    return CZK_CLI_CONTINUE;
}

/* The parameters (czk's cache), the synthetic C1s and the circuit's sizes. */
static int prepare(bench *B)
{
    const czk_fc_shape *shape = &B->shape;
    B->njobs = (size_t)B->o.jobs;
    B->np = shape->partitions;
    B->c1 = calloc(B->njobs, sizeof *B->c1);
    B->pp = calloc(B->njobs * B->np, sizeof *B->pp);
    B->sp = calloc(B->njobs * B->np, sizeof *B->sp);
    if (!B->c1 || !B->pp || !B->sp) {
        fprintf(stderr, "czk bench pipeline: out of memory\n");
        return CZK_EXIT_FAIL;
    }
    /* czk's parameter cache: generated and cached (with its sidecar, so the
     * pinned read skips the subgroup checks) when absent */
    czk_status st = czk_kind_cached_params(&B->params, &czk_kind_porep, shape, czk_progress_cb, &B->pg, B->ppath, &B->generated);
    if (st != CZK_OK) return czk_cli_fail("bench pipeline", st, "parameters");
    B->have_params = 1;
    /* --stream-params: the runs prove with the file left on disk */
    if (B->o.stream) {
        st = czk_groth16_params_open_streamed(&B->streamed, B->ppath, CZK_GROTH16_CHECK_PINNED, B->o.chunk, B->nt);
        if (st != CZK_OK) return czk_cli_fail("bench pipeline", st, "opening the parameters streamed");
    }
    for (; B->n_c1 < B->njobs; B->n_c1++) {
        st = czk_fc_gen_c1(&B->c1[B->n_c1], shape, 1 + B->n_c1, NULL, NULL);
        if (st != CZK_OK) return czk_cli_fail("bench pipeline", st, "synthetic C1");
    }
    st = czk_porep_sizes(&B->sz, shape);
    if (st != CZK_OK) return czk_cli_fail("bench pipeline", st, "circuit sizes");
    return CZK_EXIT_OK;
}

/* One partition proven outside every measurement. */
static int warm_up(bench *B)
{
    if (B->pg.enabled) czk_progress_fraction(&B->pg, "warm-up proof", 0);
    czk_cs *cs = NULL;
    czk_groth16_proof wp;
    czk_cs_assignment w;
    czk_status st = czk_cs_create(&cs, CZK_CS_PROVE, CZK_LC_DEFAULT, &B->sz);
    if (st == CZK_OK) st = czk_porep_synthesize(cs, &B->shape, &B->c1[0], 0);
    if (st == CZK_OK) st = czk_cs_finalize(cs);
    if (st == CZK_OK) st = czk_cs_prove_get(cs, &w);
    czk_groth16_prove_opts po = {0};
    if (st == CZK_OK) st = czk_groth16_prove(&wp, &B->params, &w, &po);
    czk_cs_destroy(cs);
    czk_progress_done(&B->pg);
    if (st != CZK_OK) return czk_cli_fail("bench pipeline", st, "warm-up proof");
    return CZK_EXIT_OK;
}

/* The pipelined runs of one witness source, once per batch size; every proof checked. */
static czk_status pipelined_batches(bench *B, const czk_witness_source *src)
{
    const bopts *o = &B->o;
    czk_engine_opts em = B->eo;
    czk_status st = CZK_OK;
    /* a multithreaded source: one synthesis worker on every thread */
    if (src->ops->multithreaded && o->synth == 0) em.synth_workers = 1;
    for (int k = 0; k < o->n_batch && st == CZK_OK; k++) {
        char trace[600];
        pipe_run *r = &B->runs[B->n_runs];
        em.batch = (int)o->batch[k];
        em.trace_path = NULL;
        if (o->trace) {
            if (o->n_batch * o->n_pce > 1)
                snprintf(trace, sizeof trace, "%s.%s.batch%d", o->trace, src->ops->name, em.batch);
            else
                snprintf(trace, sizeof trace, "%s", o->trace);
            em.trace_path = trace;
        }
        r->batch = em.batch;
        r->witness = src->ops->name;
        r->synth_workers = em.synth_workers > 0 ? em.synth_workers : B->r_synth;
        memset(B->pp, 0, B->njobs * B->np * sizeof *B->pp);
        st = pipelined(r, &em, src, B->c1, B->njobs, B->np, (size_t)o->conc,
                       o->stream ? &B->streamed : &B->params, B->pp);
        czk_progress_done(&B->pg);
        char what[96];
        if (st != CZK_OK) {
            snprintf(what, sizeof what, "pipelined run (%s, batch %d)", src->ops->name, em.batch);
            czk_cli_fail("bench pipeline", st, what);
            break;
        }
        for (size_t i = 0; i < B->njobs && st == CZK_OK; i++) {
            st = czk_kind_verify_data(&B->params.vk, &czk_kind_porep, &B->c1[i], B->pp + i * B->np, NULL,
                                      (uint32_t)B->np);
            if (st != CZK_OK) {
                snprintf(what, sizeof what, "checking the pipelined proofs (%s, batch %d, job %zu)", src->ops->name,
                         em.batch, i);
                czk_cli_fail("bench pipeline", st, what);
            }
        }
        B->n_runs++;
    }
    return st;
}

/* Pipelined, once per witness mode and batch size. */
static int run_pipelined(bench *B)
{
    for (int m = 0; m < B->o.n_pce; m++) {
        czk_witness_source src;
        czk_source_opts so;
        memset(&so, 0, sizeof so);
        so.pce = B->o.pce[m];
        so.lc = CZK_LC_DEFAULT;
        so.progress = czk_progress_cb;
        so.progress_ctx = &B->pg;
        czk_status st = czk_kind_source_open(&src, &czk_kind_porep, &B->c1[0], &so);
        czk_progress_done(&B->pg);
        if (st != CZK_OK) return czk_cli_fail("bench pipeline", st, "opening the witness source");
        st = pipelined_batches(B, &src);
        czk_witness_source_close(&src);
        if (st != CZK_OK) return CZK_EXIT_FAIL;
    }
    return CZK_EXIT_OK;
}

/* Strictly sequential: synthesize, prove, verify, one partition at a time. */
static int run_sequential(bench *B)
{
    const size_t njobs = B->njobs, np = B->np;
    czk_cs *cs = NULL;
    double t0 = czk_now();
    czk_status st = czk_cs_create(&cs, CZK_CS_PROVE, CZK_LC_DEFAULT, &B->sz);
    for (size_t i = 0; i < njobs && st == CZK_OK; i++) {
        for (uint32_t k = 0; k < np && st == CZK_OK; k++) {
            double a = czk_now();
            czk_cs_reset(cs);
            st = czk_porep_synthesize(cs, &B->shape, &B->c1[i], k);
            if (st == CZK_OK) st = czk_cs_finalize(cs);
            if (st == CZK_OK) st = czk_cs_prove_check(cs);
            double b = czk_now();
            czk_cs_assignment w;
            if (st == CZK_OK) st = czk_cs_prove_get(cs, &w);
            czk_groth16_prove_opts po = {0};
            po.threads = B->nt;
            if (st == CZK_OK && B->o.stream) {
                czk_groth16_stream_opts so = {0};
                so.threads = B->nt;
                st = czk_groth16_prove_streamed(&B->sp[i * np + k], &B->streamed, &w, &so);
            } else if (st == CZK_OK) {
                st = czk_groth16_prove(&B->sp[i * np + k], &B->params, &w, &po);
            }
            double c = czk_now();
            B->seq_synth += b - a;
            B->seq_prove += c - b;
            if (B->pg.enabled)
                czk_progress_fraction(&B->pg, "sequential", (double)(i * np + k + 1) / (double)(njobs * np));
        }
        double a = czk_now();
        if (st == CZK_OK)
            st = czk_kind_verify_data(&B->params.vk, &czk_kind_porep, &B->c1[i], B->sp + i * np, NULL, (uint32_t)np);
        B->seq_verify += czk_now() - a;
    }
    czk_cs_destroy(cs);
    B->t_seq = czk_now() - t0;
    czk_progress_done(&B->pg);
    if (st != CZK_OK) return czk_cli_fail("bench pipeline", st, "sequential run");
    return CZK_EXIT_OK;
}

static void print_json(const bench *B, double bound)
{
    const double n_proofs = (double)(B->njobs * B->np), t_seq = B->t_seq;
    FILE *out = B->out;
    fprintf(out,
            ",\"engine\":{\"synth_workers\":%d,\"prove_workers\":%d,\"prove_threads\":%d,\"batch_timeout_s\":%.4f,"
            "\"concurrency\":%lld,\"memory_budget\":%llu},"
            "\"constraints\":%llu,\"jobs\":%zu,\"proofs\":%zu,\"params\":\"%s\",\"streamed\":%s,\"pipelined\":[",
            B->r_synth, B->r_provew, B->r_provet, B->r_timeout, B->o.conc, (unsigned long long)B->budget,
            (unsigned long long)B->sz.n_constraints, B->njobs, B->njobs * B->np, B->ppath,
            B->o.stream ? "true" : "false");
    for (int k = 0; k < B->n_runs; k++) {
        const pipe_run *r = &B->runs[k];
        fprintf(out,
                "%s{\"witness\":\"%s\",\"synth_workers\":%d,\"batch\":%d,\"seconds\":%.6f,\"proofs_per_min\":%.3f,\"synth_busy_s\":%.6f,"
                "\"prove_busy_s\":%.6f,\"synth_utilization\":%.4f,\"prove_utilization\":%.4f,"
                "\"overlap\":%.4f,\"prover_passes\":%.0f,\"mean_batch\":%.3f,\"peak_reserved\":%llu,"
                "\"peak_rss_so_far\":%llu,\"speedup\":%.4f,\"bound_fraction\":%.4f}",
                k ? "," : "", r->witness, r->synth_workers, r->batch, r->seconds, r->proofs_per_min, r->synth_busy, r->prove_any,
                r->span > 0 ? r->synth_busy / (r->span * r->synth_workers) : 0,
                r->span > 0 ? r->prove_any / r->span : 0,
                r->span > 0 ? r->overlap / r->span : 0, r->passes, r->passes > 0 ? n_proofs / r->passes : 0,
                (unsigned long long)r->peak_reserved, r->rss, t_seq > 0 ? t_seq / r->seconds : 0,
                bound > 0 && !B->o.no_seq ? bound / r->seconds : 0);
    }
    fprintf(out,
            "],\"sequential\":{\"seconds\":%.6f,\"proofs_per_min\":%.3f,\"synth_s\":%.6f,\"prove_s\":%.6f,"
            "\"verify_s\":%.6f},\"bound_s\":%.6f,\"peak_rss\":%llu,\"verified\":true}\n",
            t_seq, t_seq > 0 ? n_proofs / t_seq * 60 : 0, B->seq_synth, B->seq_prove, B->seq_verify, bound,
            czk_bench_peak_rss());
}

static void print_text(const bench *B, double bound)
{
    const double n_proofs = (double)(B->njobs * B->np), t_seq = B->t_seq;
    const int no_seq = B->o.no_seq;
    FILE *out = B->out;
    char b1[32], b2[32], b3[32], b4[32];
    fprintf(out, "# params %s%s%s\n", B->ppath, B->generated ? " (generated now)" : "",
            B->o.stream ? ", streamed from disk by every prover pass (both runs)" : "");
    fprintf(out, "# engine: %d synthesis workers, %d prover(s) x %d OpenMP threads, %lld jobs in flight, "
                 "batch timeout %.0f ms, budget %.2f GiB\n",
            B->r_synth, B->r_provew, B->r_provet, B->o.conc, 1e3 * B->r_timeout, (double)B->budget / (1u << 30));
    fprintf(out, "# %zu jobs x %zu partitions of %llu constraints; every proof verified\n", B->njobs, B->np,
            (unsigned long long)B->sz.n_constraints);
    if (!no_seq)
        fprintf(out, "sequential             %10s  %8.2f proofs/min  (synthesis %s, proving %s, verification %s)\n",
                czk_bench_fmt_time(b1, t_seq), t_seq > 0 ? n_proofs / t_seq * 60 : 0,
                czk_bench_fmt_time(b2, B->seq_synth), czk_bench_fmt_time(b3, B->seq_prove),
                czk_bench_fmt_time(b4, B->seq_verify));
    if (!no_seq)
        fprintf(out, "pipeline bound         %10s  (max of synthesis/%d, proving, verification)\n",
                czk_bench_fmt_time(b1, bound), B->r_synth);
    for (int k = 0; k < B->n_runs; k++) {
        const pipe_run *r = &B->runs[k];
        char label[40];
        snprintf(label, sizeof label, "pipelined %s b=%d", r->witness, r->batch);
        fprintf(out, "%-22s %10s  %8.2f proofs/min", label, czk_bench_fmt_time(b1, r->seconds), r->proofs_per_min);
        if (!no_seq)
            fprintf(out, "  %.2fx sequential, %.1f%% of the bound", t_seq / r->seconds, 100 * bound / r->seconds);
        fprintf(out, "\n");
        fprintf(out, "  stages          synthesis busy %.1f%% of %d worker(s), prover busy %.1f%%, both at once %.1f%% "
                     "of the %s span; %.0f prover passes (mean batch %.2f)\n",
                r->span > 0 ? 100 * r->synth_busy / (r->span * r->synth_workers) : 0, r->synth_workers,
                r->span > 0 ? 100 * r->prove_any / r->span : 0, r->span > 0 ? 100 * r->overlap / r->span : 0,
                czk_bench_fmt_time(b2, r->span), r->passes, r->passes > 0 ? n_proofs / r->passes : 0);
        fprintf(out, "  memory          peak RSS so far %.1f MiB, peak engine reservation %.1f MiB\n",
                (double)r->rss / (1 << 20), (double)r->peak_reserved / (1 << 20));
    }
    fprintf(out, "memory                 peak RSS %.1f MiB\n", (double)czk_bench_peak_rss() / (1 << 20));
}

static int run(int argc, char **argv)
{
    bench st, *B = &st;
    memset(B, 0, sizeof *B);
    int rc = setup(B, argc, argv);
    if (rc != CZK_CLI_CONTINUE) return rc;
    char cfg[256];
    snprintf(cfg, sizeof cfg, "%s nodes=%llu layers=%u challenges=%u partitions=%u", czk_fc_proof_name(B->shape.proof),
             (unsigned long long)B->shape.nodes, B->shape.layers, B->shape.challenges, B->shape.partitions);
    if (B->json) fprintf(B->out, "{");
    czk_bench_print_config(B->out, B->json, "shape", cfg);
    rc = prepare(B);
    if (rc == CZK_EXIT_OK && !B->o.no_warmup) rc = warm_up(B);
    if (rc == CZK_EXIT_OK) rc = run_pipelined(B);
    if (rc == CZK_EXIT_OK && !B->o.no_seq) rc = run_sequential(B);
    if (rc == CZK_EXIT_OK) {
        /* pipeline bound from the sequential stage times */
        double bound = B->seq_synth / B->r_synth;
        if (B->seq_prove > bound) bound = B->seq_prove;
        if (B->seq_verify > bound) bound = B->seq_verify;
        if (B->json) print_json(B, bound);
        else print_text(B, bound);
    }
    czk_progress_done(&B->pg);
    for (size_t i = 0; i < B->n_c1; i++) czk_fc_c1_free(&B->c1[i]);
    free(B->c1);
    free(B->pp);
    free(B->sp);
    if (B->have_params) czk_groth16_params_clear(&B->params);
    czk_groth16_params_clear(&B->streamed);
    return rc;
}

CZK_BENCH(pipeline, "PoRep jobs through the pipelined engine vs sequentially (throughput, overlap)", run)
