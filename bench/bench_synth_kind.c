/* czk bench synth-only --circuit window-post|winning-post|snap: synthesis of
 * one partition of a kind that runs through the registry (FallbackPoSt,
 * czk/post.h; EmptySectorUpdate, czk/snap.h) from generated vanilla proofs
 * or real ones (--vanilla DIR), timed and self-checked (counts against the
 * closed form and the counting pass, public inputs against the kind's
 * czk_<kind>_public_inputs, a*b = c), then the digest pass of --r1cs-digest
 * (bench_r1cs.c). Three ways to synthesize: sequentially into a constraint
 * system of the chosen backend (--seq, or one thread), the parallel prover
 * (the kind's "parallel" witness source: PoSt splits its circuit sectors,
 * SnapDeals the partition's challenges), or PCE (parallel witness-only
 * synthesis + sparse mat-vec over the cached matrices; --pce on, or both for
 * off and on in one run; synth_kind.c).
 *
 * The run is the same for every kind and takes from the registry's row
 * what it has (the shape of options or of job data, reading --vanilla DIR or
 * generating the job, the witness sources and PCE); what the row does not
 * carry (the closed-form counts and the counting pass, public inputs from
 * vanilla proofs, the circuit's synthesis of a shape, the lines describing
 * the shape, the option checks' wording) is one kind_ops row per kind
 * below. */
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "shape_opts.h"
#include "synth_kind.h"
#include "czk/czk.h"
#include "czk/post.h"
#include "czk/post_kind.h"
#include "czk/post_vanilla.h"
#include "czk/snap.h"
#include "czk/snap_kind.h"

#define CMD "bench synth-only"

/* ---- one partition's job: its shape, vanilla proofs and public inputs ---- */

struct kind_ops;

typedef struct job {
    const czk__kind_bench *b;
    const struct kind_ops *ops;
    const void *given;  /* the shape of the options (NULL with --vanilla DIR) */
    void *v;            /* the vanilla proofs: the kind's read of --vanilla DIR, or generated */
    const void *shape;  /* v's */
    uint32_t k;         /* the partition */
    czk_fr *pub;        /* the verifier's public inputs */
    size_t n_pub;
    uint64_t inputs, aux, constraints; /* the closed form; constraints without the input rows */
    double gen_s;                      /* reading or generating the proofs */
} job;

/* What synth-only needs of a kind beyond the registry's row. */
typedef struct kind_ops {
    const char *name;        /* "post", "snap": czk_<name>_circuit_counts, czk_<name>_public_inputs */
    const char *porep_opt;   /* a PoRep-only option with this kind: (option, kind name) */
    const char *vanilla_opt; /* --vanilla DIR with a shape option */
    int takes_partition;     /* --partition K applies */
    int sectors_opts;        /* --sectors and --challenges resize the shape (so exclude --vanilla) */
    const char *whole;       /* what --partition K is out of ("the update") */
    const char *par_split;   /* what the parallel prover splits */
    const char *pce_split;   /* what PCE's witness splits */
    /* Inputs, aux and constraints (without the input rows): the closed form,
     * or (pass) from the counting pass (shape-only synthesis with LC storage lc). */
    czk_status (*counts)(czk_cs_sizes *out, const void *shape, int pass, czk_lc_kind lc);
    /* Partition k's public inputs (*out malloc'd, n of them, ONE excluded). */
    czk_status (*public_inputs)(czk_fr **out, size_t *n, const void *shape, const void *v, uint32_t k);
    czk_status (*synthesize)(czk_cs *cs, const void *shape, const void *v, uint32_t k);
    uint32_t (*n_par_split)(const void *shape);
    /* JSON members after "circuit", up to "challenges"; the text line that
     * describes the shape. */
    void (*print_json)(FILE *out, const job *j);
    void (*print_text)(FILE *out, const job *j);
} kind_ops;

/* ---- FallbackPoSt (WindowPoSt, WinningPoSt) ---- */

static czk_status post_counts(czk_cs_sizes *out, const void *shape, int pass, czk_lc_kind lc)
{
    czk_post_counts n;
    if (pass) CZK_TRY(czk_post_count(&n, shape, lc));
    else czk_post_circuit_counts(&n, shape);
    *out = (czk_cs_sizes){n.inputs, n.aux, n.constraints};
    return CZK_OK;
}

/* From comm_r and the challenged leaves of the vanilla proofs. */
static czk_status post_public_inputs(czk_fr **out, size_t *n, const void *shape, const void *vp, uint32_t k)
{
    (void)k;
    const czk_post_shape *s = shape;
    const czk_post_vanilla *v = vp;
    const uint32_t nv = v->n, sc = s->sector_challenges;
    *n = czk_post_public_input_count(s);
    czk_fr *pub = malloc(*n * sizeof *pub), *comm_r = malloc(nv * sizeof *comm_r);
    uint64_t *leaves = malloc((size_t)nv * sc * sizeof *leaves);
    czk_status st = pub && comm_r && leaves ? CZK_OK : czk_error(CZK_ERR_NOMEM, "public inputs");
    for (uint32_t i = 0; st == CZK_OK && i < nv; i++) {
        comm_r[i] = v->proofs[i].comm_r;
        for (uint32_t c = 0; c < sc; c++) leaves[(size_t)i * sc + c] = v->proofs[i].inclusion[c].index;
    }
    if (st == CZK_OK) st = czk_post_public_inputs(pub, s, comm_r, nv, leaves);
    free(comm_r);
    free(leaves);
    *out = pub;
    return st;
}

static czk_status post_synthesize(czk_cs *cs, const void *shape, const void *v, uint32_t k)
{
    (void)k;
    return czk_post_synthesize(cs, shape, v);
}

static uint32_t post_n_par_split(const void *shape) { return ((const czk_post_shape *)shape)->sectors; }

static void post_print_json(FILE *out, const job *j)
{
    const czk_post_shape *s = j->shape;
    fprintf(out, ",\"sector_size\":%llu,\"sectors\":%u,\"challenges\":%u", (unsigned long long)s->tree.sector_size,
            s->sectors, s->challenges);
}

static void post_print_text(FILE *out, const job *j)
{
    const czk_post_shape *s = j->shape;
    const czk_fc_shape *t = &s->tree;
    fprintf(out, "# %s: %llu nodes, tree %u,%u,%u h%u, %u sectors x %u challenges (%u vanilla sectors %s, %.2f s)\n",
            czk_post_kind_name(s->kind), (unsigned long long)t->nodes, t->base_arity, t->sub_arity, t->top_arity,
            t->base_height, s->sectors, s->challenges, ((const czk_post_vanilla *)j->v)->n,
            j->b->vanilla_dir ? "read and checked" : "generated", j->gen_s);
}

static const kind_ops post_ops = {
    .name = "post",
    .porep_opt = "%s is a PoRep option (not for --circuit %s)",
    .vanilla_opt = "--vanilla DIR takes the shape from DIR's json: no --sector-size, custom shape, --sectors or --seed",
    .takes_partition = 0,
    .sectors_opts = 1,
    .whole = "the proof",
    .par_split = "circuit sectors",
    .pce_split = "sectors",
    .counts = post_counts,
    .public_inputs = post_public_inputs,
    .synthesize = post_synthesize,
    .n_par_split = post_n_par_split,
    .print_json = post_print_json,
    .print_text = post_print_text,
};

/* ---- SnapDeals (EmptySectorUpdate) ---- */

static czk_status snap_counts(czk_cs_sizes *out, const void *shape, int pass, czk_lc_kind lc)
{
    czk_snap_counts n;
    if (pass) CZK_TRY(czk_snap_count(&n, shape, lc));
    else czk_snap_circuit_counts(&n, shape);
    *out = (czk_cs_sizes){n.inputs, n.aux, n.constraints};
    return CZK_OK;
}

static czk_status snap_public_inputs(czk_fr **out, size_t *n, const void *shape, const void *vp, uint32_t k)
{
    const czk_snap_vanilla *v = vp;
    *n = CZK_SNAP_PUBLIC_INPUTS;
    *out = malloc(CZK_SNAP_PUBLIC_INPUTS * sizeof **out);
    if (!*out) return czk_error(CZK_ERR_NOMEM, "public inputs");
    return czk_snap_public_inputs(*out, shape, k, v->h, &v->comm_r_old, &v->comm_d_new, &v->comm_r_new);
}

static czk_status snap_synthesize(czk_cs *cs, const void *shape, const void *v, uint32_t k)
{
    return czk_snap_synthesize(cs, shape, v, k);
}

static uint32_t snap_n_par_split(const void *shape) { return ((const czk_snap_shape *)shape)->challenges; }

static void snap_print_json(FILE *out, const job *j)
{
    const czk_snap_shape *s = j->shape;
    fprintf(out, ",\"update_proof\":\"%s\",\"sector_size\":%llu,\"partition\":%u,\"partitions\":%u,\"challenges\":%u",
            czk_snap_proof_name(s->update_proof), (unsigned long long)s->tree.sector_size, j->k, s->partitions,
            s->challenges);
}

static void snap_print_text(FILE *out, const job *j)
{
    const czk_snap_shape *s = j->shape;
    const czk_fc_shape *t = &s->tree;
    fprintf(out,
            "# snap %s: %llu nodes, tree %u,%u,%u h%u, partition %u of %u, %u challenges, %u apex leaves, h %u "
            "(update %s, %.2f s)\n",
            czk_snap_proof_name(s->update_proof), (unsigned long long)t->nodes, t->base_arity, t->sub_arity,
            t->top_arity, t->base_height, j->k, s->partitions, s->challenges, s->apex_leaves,
            ((const czk_snap_vanilla *)j->v)->h, j->b->vanilla_dir ? "read and checked" : "generated", j->gen_s);
}

static const kind_ops snap_ops = {
    .name = "snap",
    .porep_opt = "%s is not an option of --circuit %s",
    .vanilla_opt = "--vanilla DIR takes the shape from DIR's snap.json: no --sector-size, custom shape or --seed",
    .takes_partition = 1,
    .sectors_opts = 0,
    .whole = "the update",
    .par_split = "challenges",
    .pce_split = "challenges",
    .counts = snap_counts,
    .public_inputs = snap_public_inputs,
    .synthesize = snap_synthesize,
    .n_par_split = snap_n_par_split,
    .print_json = snap_print_json,
    .print_text = snap_print_text,
};

/* The registry's kinds synth-only runs this way, by name. */
static const struct {
    const char *kind;
    const kind_ops *ops;
} kinds[] = {
    {"window-post", &post_ops},
    {"winning-post", &post_ops},
    {"snap", &snap_ops},
};

/* ---- the run, the same for every kind ---- */

/* The vanilla proofs read (the kind's files) or generated, the closed-form
 * counts, the partition, the public inputs: CZK_EXIT_OK, or the exit code
 * after saying why. */
static int job_load(job *j)
{
    const czk__kind_bench *b = j->b;
    const czk_proof_kind *kind = b->kind;
    double t0 = czk_now();
    czk_status st;
    if (b->vanilla_dir) {
        st = kind->read(&j->v, b->vanilla_dir);
        if (st != CZK_OK) return czk_cli_fail(CMD, st, "reading the vanilla proofs");
    } else {
        st = b->kind->generate(&j->v, j->given, b->seed);
        if (st != CZK_OK) return czk_cli_fail(CMD, st, "generating the job");
    }
    j->gen_s = czk_now() - t0;
    j->shape = kind->shape_of(j->v);
    czk_cs_sizes n;
    j->ops->counts(&n, j->shape, 0, b->lc);
    j->inputs = n.n_inputs;
    j->aux = n.n_aux;
    j->constraints = n.n_constraints;
    const uint32_t parts = kind->partitions(j->v);
    if (j->k >= parts) {
        fprintf(stderr, "czk %s: --partition %u: %s has %u partitions\n", CMD, j->k, j->ops->whole, parts);
        return CZK_EXIT_USAGE;
    }
    st = j->ops->public_inputs(&j->pub, &j->n_pub, j->shape, j->v, j->k);
    if (st != CZK_OK) return czk_cli_fail(CMD, st, "public inputs");
    return CZK_EXIT_OK;
}

static void job_free(job *j)
{
    free(j->pub);
    if (j->v) j->b->kind->free_data(j->v);
}

/* --pce auto: the PCE of the options' shape, or of the one in vanilla_dir, is cached. */
static int job_pce_cached(const job *j, const char *vanilla_dir)
{
    if (j->given) return czk_kind_pce_cached(j->b->kind, j->given);
    const czk_proof_kind *kind = j->b->kind;
    void *pub = NULL;
    if (kind->read_public(&pub, vanilla_dir) != CZK_OK) return 0;
    const int cached = czk_kind_pce_cached(kind, kind->public_shape(pub));
    kind->free_public(pub);
    return cached;
}

/* What one run holds between its stages. */
typedef struct run {
    const czk__kind_bench *b;
    const czk_cli_common *com;
    FILE *out;
    int pce;                   /* 0 off, 1 on, 2 both (off, then on) */
    int run_off, run_on, par;  /* the off run; the PCE run; the off run is the parallel prover */
    const char *mode;
    job j;
    czk__synth_kind sk;
    czk_cs_sizes z;            /* the constraint system's sizes (input rows included) */
    double cnt_s;
    czk_cs *cs;                /* the sequential off run's */
    double *wall, *cpu;
    czk__synth_sum off_sum, on_sum;
    czk__r1cs_result rr;
    int r1cs_bad, r1cs_show;
} run;

/* The counting pass (shape-only synthesis) against the closed form. */
static int count_pass(run *r)
{
    const job *j = &r->j;
    czk_cs_sizes cnt;
    double t0 = czk_now();
    czk_status st = j->ops->counts(&cnt, j->shape, 1, r->b->lc);
    r->cnt_s = czk_now() - t0;
    if (st != CZK_OK) return czk_cli_fail(CMD, st, "counting pass");
    if (cnt.n_inputs != j->inputs || cnt.n_aux != j->aux || cnt.n_constraints != j->constraints) {
        fprintf(stderr, "czk %s: counting pass %llu/%llu/%llu != czk_%s_circuit_counts %llu/%llu/%llu\n", CMD,
                (unsigned long long)cnt.n_inputs, (unsigned long long)cnt.n_aux,
                (unsigned long long)cnt.n_constraints, j->ops->name, (unsigned long long)j->inputs,
                (unsigned long long)j->aux, (unsigned long long)j->constraints);
        return CZK_EXIT_FAIL;
    }
    return CZK_EXIT_OK;
}

/* The configuration, the shape and the sizes; the sequential run's table head. */
static void print_header(const run *r)
{
    const czk__kind_bench *b = r->b;
    const job *j = &r->j;
    FILE *out = r->out;
    const int seq = r->run_off && !r->par;
    if (r->com->json) {
        fprintf(out, "{");
        czk_bench_print_config(out, 1, "bench", "synth-only");
        fprintf(out, ",\"circuit\":\"%s\"", b->kind->name);
        j->ops->print_json(out, j);
        fprintf(out, ",\"lc\":\"%s\",\"backend\":\"%s\",\"inputs\":%llu,\"aux\":%llu,\"constraints\":%llu,"
                     "\"circuit_constraints\":%llu",
                czk_lc_kind_name(b->lc), czk_cs_backend_name(b->backend), (unsigned long long)j->inputs,
                (unsigned long long)j->aux, (unsigned long long)(j->constraints + j->inputs),
                (unsigned long long)j->constraints);
        fprintf(out, ",\"vanilla\":\"%s\",\"mode\":\"%s\"", b->vanilla_dir ? "read" : "generated", r->mode);
        if (!b->no_count) fprintf(out, ",\"count_pass_s\":%.3f", r->cnt_s);
        if (seq) fprintf(out, ",\"iterations\":[");
        return;
    }
    char cfg[160];
    snprintf(cfg, sizeof cfg, "%s lc=%s backend=%s mode=%s", b->kind->name, czk_lc_kind_name(b->lc),
             czk_cs_backend_name(b->backend), r->mode);
    czk_bench_print_config(out, 0, "bench", cfg);
    j->ops->print_text(out, j);
    if (b->vanilla_dir) fprintf(out, "# vanilla proofs: %s\n", b->vanilla_dir);
    fprintf(out, "# per partition: %llu inputs, %llu aux, %llu constraints (%llu + %llu input constraints)\n",
            (unsigned long long)j->inputs, (unsigned long long)j->aux,
            (unsigned long long)(j->constraints + j->inputs), (unsigned long long)j->constraints,
            (unsigned long long)j->inputs);
    if (!b->no_count) fprintf(out, "# counting pass (shape-only synthesis): %.2f s\n", r->cnt_s);
    if (seq)
        fprintf(out, "# sequential %s synthesis\n%5s %10s %10s %13s %12s %8s %12s %10s\n",
                czk_cs_backend_name(b->backend), "iter", "wall", "cpu", "constraints", "aux", "inputs", "cons/s",
                "peakRSS");
}

/* The sequential off run: iters syntheses into r->cs, each checked outside its timing. */
static int run_sequential(run *r)
{
    const czk__kind_bench *b = r->b;
    const job *j = &r->j;
    FILE *out = r->out;
    for (long long it = 0; it < b->iters; it++) {
        czk_cs_reset(r->cs);
        double w0 = czk_now(), c0 = czk_cpu_now();
        czk_status st = j->ops->synthesize(r->cs, j->shape, b->backend == CZK_CS_SHAPE ? NULL : j->v, j->k);
        if (st == CZK_OK) st = czk_cs_finalize(r->cs);
        r->wall[it] = czk_now() - w0;
        r->cpu[it] = czk_cpu_now() - c0;
        if (st == CZK_OK) st = czk__synth_cs_check(&r->sk, r->cs, j->inputs, j->aux, j->constraints, !b->no_check);
        if (st != CZK_OK) {
            if (r->com->json) fprintf(out, "],\"ok\":false}\n");
            fprintf(stderr, "czk %s: %s\n", CMD, czk_last_error());
            return CZK_EXIT_FAIL;
        }
        double cons = (double)j->constraints;
        unsigned long long rss = czk_bench_peak_rss();
        if (r->com->json)
            fprintf(out, "%s{\"wall_s\":%.6f,\"cpu_s\":%.6f,\"constraints_per_s\":%.0f,\"peak_rss_bytes\":%llu}",
                    it ? "," : "", r->wall[it], r->cpu[it], cons / r->wall[it], rss);
        else {
            char a1[32], a2[32];
            fprintf(out, "%5lld %10s %10s %13llu %12llu %8llu %12.0f %8.2fGiB\n", it,
                    czk_bench_fmt_time(a1, r->wall[it]), czk_bench_fmt_time(a2, r->cpu[it]),
                    (unsigned long long)j->constraints, (unsigned long long)j->aux, (unsigned long long)j->inputs,
                    cons / r->wall[it], (double)rss / 1073741824.0);
        }
        fflush(out);
    }
    czk__synth_summarize(&r->off_sum, r->wall, r->cpu, b->iters);
    return CZK_EXIT_OK;
}

/* The partition for the digest pass. */
typedef struct digest_ctx {
    const job *j;
} digest_ctx;

static czk_status digest_synth(czk_cs *cs, const void *ctx)
{
    const job *j = ((const digest_ctx *)ctx)->j;
    return j->ops->synthesize(cs, j->shape, j->v, j->k);
}

/* --r1cs-digest: the timed run's assignment digest (sequential runs), then
 * its memory goes and the digest pass runs. */
static void r1cs_pass(run *r)
{
    const czk__kind_bench *b = r->b;
    uint8_t timed[32];
    int have_timed = 0;
    czk_cs_assignment a;
    const czk_fr *in, *aux;
    size_t ni, na;
    if (r->cs && b->backend == CZK_CS_PROVE && czk_cs_prove_get(r->cs, &a) == CZK_OK) {
        czk_cs_r1cs_digest_assignment(timed, a.input, a.n_input, a.aux, a.n_aux);
        have_timed = 1;
    } else if (r->cs && b->backend == CZK_CS_WITNESS && czk_cs_witness_get(r->cs, &in, &ni, &aux, &na) == CZK_OK) {
        czk_cs_r1cs_digest_assignment(timed, in, ni, aux, na);
        have_timed = 1;
    }
    czk_cs_destroy(r->cs);
    r->cs = NULL;
    const digest_ctx dc = {&r->j};
    czk_status st = czk__bench_r1cs_run(&r->rr, b->r1cs, digest_synth, &dc, &r->z, have_timed ? timed : NULL);
    if (st != CZK_OK) fprintf(stderr, "czk %s: r1cs digest: %s\n", CMD, czk_last_error());
    r->r1cs_bad = st != CZK_OK || (b->r1cs->compare && !r->rr.diff.identical);
    r->r1cs_show = st == CZK_OK;
}

/* The end: off against on (--pce both), peak RSS, the digests, what was checked. */
static void print_tail(const run *r)
{
    const czk__kind_bench *b = r->b;
    const czk__synth_sum *off = &r->off_sum, *on = &r->on_sum;
    FILE *out = r->out;
    const char *name = r->j.ops->name;
    char pub[64] = "";
    if (b->backend != CZK_CS_SHAPE) snprintf(pub, sizeof pub, ", public inputs = czk_%s_public_inputs", name);
    if (r->com->json) {
        if (r->pce == 2)
            fprintf(out, ",\"off_over_on_wall\":%.4f,\"off_over_on_cpu\":%.4f", off->wall / on->wall,
                    off->cpu / on->cpu);
        fprintf(out, ",\"peak_rss_bytes\":%llu", czk_bench_peak_rss());
        if (r->r1cs_show) czk__bench_r1cs_print_json(out, &r->rr, b->r1cs);
        fprintf(out, ",\"ok\":%s}\n", r->r1cs_bad ? "false" : "true");
        if (r->r1cs_show && b->r1cs->compare && !r->rr.diff.identical)
            czk__bench_r1cs_print_diff(stderr, &r->rr, b->r1cs);
        return;
    }
    char a1[32], a2[32], a3[32], a4[32];
    if (r->pce == 2)
        fprintf(out, "\npce off (%s) vs on, same run: median wall %s -> %s (%.2fx), median cpu %s -> %s (%.2fx)\n",
                r->par ? "parallel" : "sequential", czk_bench_fmt_time(a1, off->wall), czk_bench_fmt_time(a2, on->wall),
                off->wall / on->wall, czk_bench_fmt_time(a3, off->cpu), czk_bench_fmt_time(a4, on->cpu),
                off->cpu / on->cpu);
    fprintf(out, "checks: counts = czk_%s_circuit_counts%s%s%s: ok\n", name, b->no_count ? "" : " = counting pass", pub,
            b->backend == CZK_CS_PROVE && !b->no_check ? ", a*b = c on every row" : "");
    if (r->r1cs_show) czk__bench_r1cs_print_text(out, &r->rr, b->r1cs);
}

/* The off run (parallel or sequential), the digest pass, the PCE run. */
static int run_modes(run *r)
{
    const czk__kind_bench *b = r->b;
    const int json = r->com->json;
    czk_status st;
    if (r->run_off && r->par) {
        st = czk__synth_run_parallel(r->out, json, &r->sk, &r->z, b->iters, b->lc, b->no_check, &r->off_sum);
        if (st != CZK_OK) {
            if (json) fprintf(r->out, ",\"ok\":false}\n");
            return czk_cli_fail(CMD, st, "parallel synthesis");
        }
    }
    if (r->run_off && !r->par && run_sequential(r) != CZK_EXIT_OK) return CZK_EXIT_FAIL;
    if (b->r1cs) r1cs_pass(r);
    if (r->run_off && !r->par) {
        if (json)
            fprintf(r->out, "],\"wall_min_s\":%.6f,\"wall_median_s\":%.6f,\"cpu_min_s\":%.6f", r->off_sum.wall_min,
                    r->off_sum.wall, r->off_sum.cpu_min);
        else
            czk__synth_print_min(r->out, &r->off_sum);
    }
    /* the off run's memory goes before the PCE is loaded */
    czk_cs_destroy(r->cs);
    r->cs = NULL;
    if (r->run_on) {
        st = czk__synth_run_pce(r->out, json, &r->sk, &r->z, b->iters, b->no_check, b->validate, b->stream,
                                &r->on_sum);
        if (st != CZK_OK) {
            if (json) fprintf(r->out, ",\"ok\":false}\n");
            return czk_cli_fail(CMD, st, "PCE");
        }
        if (!json) czk__synth_print_min(r->out, &r->on_sum);
    } else if (r->par && !json) {
        czk__synth_print_min(r->out, &r->off_sum);
    }
    print_tail(r);
    return r->r1cs_bad ? CZK_EXIT_FAIL : CZK_EXIT_OK;
}

/* The job read or generated, the counting pass, then the modes. */
static int run_job(run *r)
{
    const czk__kind_bench *b = r->b;
    job *j = &r->j;
    int rc = job_load(j);
    if (rc != CZK_EXIT_OK) return rc;
    r->wall = calloc((size_t)b->iters, sizeof(double));
    r->cpu = calloc((size_t)b->iters, sizeof(double));
    if (!r->wall || !r->cpu) return czk_cli_fail(CMD, czk_error(CZK_ERR_NOMEM, "timings"), "allocating");
    r->sk = (czk__synth_kind){.name = j->ops->name,
                              .kind = b->kind,
                              .v = j->v,
                              .k = j->k,
                              .pub = j->pub,
                              .n_pub = j->n_pub,
                              .par_split = j->ops->par_split,
                              .n_par_split = j->ops->n_par_split(j->shape),
                              .pce_split = j->ops->pce_split};
    if (!b->no_count && (rc = count_pass(r)) != CZK_EXIT_OK) return rc;
    r->z = (czk_cs_sizes){j->inputs, j->aux, j->constraints + j->inputs};
    /* sequential into a constraint system (--seq, one thread, or a backend
     * other than prove), else the parallel prover; then PCE if asked */
    const int threads = czk_threads() > 0 ? czk_threads() : 1;
    r->run_off = r->pce != 1;
    r->run_on = r->pce != 0;
    r->par = b->backend == CZK_CS_PROVE && !b->seq && threads > 1;
    r->mode = r->pce == 1   ? "pce"
              : r->pce == 2 ? (r->par ? "parallel,pce" : "sequential,pce")
              : r->par      ? "parallel"
                            : "sequential";
    if (r->run_off && !r->par) {
        czk_status st = czk_cs_create(&r->cs, b->backend, b->lc, &r->z);
        if (st != CZK_OK) return czk_cli_fail(CMD, st, "creating the constraint system");
    }
    print_header(r);
    return run_modes(r);
}

/* The options that apply to one partition of this kind, generated or read
 * (--vanilla DIR): 0, or a usage error. */
static int check_options(const czk__kind_bench *b, const kind_ops *ops)
{
    const czk_shape_args *a = b->shape_args;
    const char *bad = b->porep_opt ? b->porep_opt : b->partition && !ops->takes_partition ? "--partition" : NULL;
    if (bad) return czk_cli_usage_error(CMD, b->usage, ops->porep_opt, bad, b->kind->name);
    if ((b->validate || b->stream) && b->pce != CZK__PCE_ON && b->pce != CZK__PCE_BOTH)
        return czk_cli_usage_error(CMD, b->usage, "--validate and --stream are PCE options: give --pce on or both");
    if (b->r1cs && b->pce != CZK__PCE_OFF)
        return czk_cli_usage_error(CMD, b->usage, "--r1cs-digest runs with --pce off");
    if (b->pce != CZK__PCE_OFF && b->backend != CZK_CS_PROVE)
        return czk_cli_usage_error(CMD, b->usage, "--pce makes the prove backend's assignment: no --backend %s",
                                   czk_cs_backend_name(b->backend));
    if (b->vanilla_dir && (a->have_size || a->have_custom || (ops->sectors_opts && (a->sectors || a->challenges)) ||
                           b->have_seed))
        return czk_cli_usage_error(CMD, b->usage, "%s", ops->vanilla_opt);
    return 0;
}

int czk__bench_synth_kind(const czk__kind_bench *opt, const czk_cli_common *com)
{
    size_t i = 0;
    while (i < sizeof kinds / sizeof kinds[0] && strcmp(kinds[i].kind, opt->kind->name)) i++;
    if (i == sizeof kinds / sizeof kinds[0])
        return czk_cli_usage_error(CMD, opt->usage, "--circuit %s: not a kind synth-only runs", opt->kind->name);
    const kind_ops *ops = kinds[i].ops;
    int rc = check_options(opt, ops);
    if (rc != 0) return rc;
    void *shape = NULL;
    if (!opt->vanilla_dir && (rc = czk_kind_shape_resolve(&shape, opt->kind, opt->shape_args, CMD, opt->usage)) != 0)
        return rc;
    czk_cli_apply_common(com);
    czk_init();
    if (opt->r1cs && opt->r1cs->compare) {
        czk_status vs = czk__bench_r1cs_check_dump(opt->r1cs->compare, opt->lc);
        if (vs != CZK_OK) {
            free(shape);
            return czk_cli_fail(CMD, vs, "--r1cs-compare");
        }
    }
    run r;
    memset(&r, 0, sizeof r);
    r.b = r.j.b = opt;
    r.com = com;
    r.out = stdout;
    r.j.ops = ops;
    r.j.given = shape;
    r.j.k = (uint32_t)opt->partition;
    r.pce = opt->pce == CZK__PCE_ON ? 1 : opt->pce == CZK__PCE_BOTH ? 2 : 0;
    if (opt->pce == CZK__PCE_AUTO) r.pce = job_pce_cached(&r.j, opt->vanilla_dir) ? 1 : 0;
    rc = run_job(&r);
    czk_cs_destroy(r.cs);
    czk__bench_r1cs_clear(&r.rr);
    free(r.wall);
    free(r.cpu);
    job_free(&r.j);
    free(shape);
    return rc;
}
