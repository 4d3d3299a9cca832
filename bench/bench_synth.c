/* czk bench synth-only: synthesis of StackedDRG PoRep partitions (cuzk's
 * `synth-only`), one partition or all of them in parallel; self-checking
 * (counts against czk_porep_sizes, a*b = c on every row, public inputs).
 * --circuit window-post|winning-post|snap: one partition of another kind
 * (bench_synth_kind.c). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "cs/cs_internal.h"
#include "shape_opts.h"
#include "czk/czk.h"
#include "czk/perf.h"
#include "czk/pce.h"
#include "czk/porep.h"
#include "progress.h"

static const char usage[] =
    "usage: czk bench synth-only (--c1 FILE | --sector-size S [--seed N] | CUSTOM SHAPE)\n"
    "                            [--partition K | --all] [-i ITER] [--lc vec|inline1|inline2|inline4]\n"
    "                            [--backend prove|witness|shape] [--seq] [--no-nnz] [--no-check]\n"
    "                            [--pce off|on|auto|both] [--validate] [--stream] [--threads T] [--json]\n"
    "                            [--r1cs-digest] [--r1cs-dump FILE] [--r1cs-compare REFDUMP]\n"
    "       czk bench synth-only --circuit window-post|winning-post\n"
    "                            (--sector-size S [--sectors N] [--challenges C]\n"
    "                             | --nodes N --tree B[,S[,T]] --sectors N --challenges C\n"
    "                             | --vanilla DIR)\n"
    "                            [--seed N] [-i ITER] [--lc KIND] [--backend prove|witness|shape] [--seq]\n"
    "                            [--pce off|on|auto|both] [--validate] [--stream] [--no-nnz] [--no-check]\n"
    "                            [--threads T] [--json]\n"
    "                            [--r1cs-digest] [--r1cs-dump FILE] [--r1cs-compare REFDUMP]\n"
    "       czk bench synth-only --circuit snap (--sector-size S | --nodes N --tree B[,S[,T]] | --vanilla DIR)\n"
    "                            [--partition K] [--seed N] [-i ITER] [--lc KIND] [--backend prove|witness|shape]\n"
    "                            [--seq] [--pce off|on|auto|both] [--validate] [--stream] [--no-nnz] [--no-check]\n"
    "                            [--threads T] [--json]\n"
    "                            [--r1cs-digest] [--r1cs-dump FILE] [--r1cs-compare REFDUMP]\n\n"
    "Synthesize PoRep partition circuits (docs/filecoin.md#porep) from a C1 file or a generated\n"
    "consistent sector, and time it. Per iteration: wall time (reset + synthesis +\n"
    "finalize), synthesis time, circuits, constraints, aux, inputs, constraints/s,\n"
    "peak RSS; then min / median. The constraint system is sized once from\n"
    "czk_porep_sizes (no reallocation) and reused across iterations.\n"
    "Also reports the A/B/C non-zero counts from a counting pass (docs/filecoin.md#porep-counts lists\n"
    "the 32GiB figures). Checks: counts equal czk_porep_sizes, the input vector equals\n"
    "the verifier's public inputs, and (prove) a*b = c on every row.\n\n"
    "  --circuit C       porep (default), window-post or winning-post: one FallbackPoSt\n"
    "                    partition (docs/filecoin.md#fallbackpost) from generated vanilla\n"
    "                    proofs (or real ones, --vanilla); --sector-size gives the\n"
    "                    production shape (Window: 2 / 2,349 / 2,300 sectors of 10\n"
    "                    challenges; Winning: 66 of 1), which --sectors and --challenges\n"
    "                    resize; or a custom tree with --nodes, --tree, --sectors and\n"
    "                    --challenges. Checks: counts equal the closed form and the\n"
    "                    counting pass (--no-nnz skips it), the input vector equals\n"
    "                    czk_post_public_inputs, a*b = c (prove). With --threads > 1 the\n"
    "                    prove backend runs the parallel prover (circuit sectors split\n"
    "                    across threads, written in place; --seq: one after the other);\n"
    "                    --pce on|both times the PoSt PCE (witness across sectors, then\n"
    "                    the mat-vec) and --validate compares it with the PROVE synthesis,\n"
    "                    streamed by sectors, bit for bit; a, b, c are streamed in chunks\n"
    "                    (--stream, or when the full assignment does not fit: 32GiB\n"
    "                    WindowPoSt is 11.2 GiB of a/b/c besides the PCE and witness)\n"
    "                    snap: one EmptySectorUpdate partition (docs/filecoin.md#snapdeals)\n"
    "                    of a generated update (czk gen-snap's) or a real one (--vanilla);\n"
    "                    --sector-size gives the production shape, --nodes and --tree a\n"
    "                    custom tree with the constants the node count implies; checks as\n"
    "                    for PoSt (czk_snap_circuit_counts, czk_snap_public_inputs); the\n"
    "                    parallel prover splits the partition's challenges; --pce as for PoSt\n"
    "  --sectors N       (PoSt) circuit sectors per partition\n"
    "  --vanilla DIR     (PoSt) real vanilla proofs instead of generated ones: DIR/post-KIND.json\n"
    "                    (its registered_post_proof gives the shape) and DIR/vanilla-KIND.bin\n"
    "                    (bincode, one FallbackPoStSectorProof per sector id), KIND window or\n"
    "                    winning from --circuit, as czk-oracle vanilla-post -o DIR writes\n"
    "                    them; checked natively against their challenges before synthesis.\n"
    "                    snap: DIR/snap.json and DIR/snap-partition-K.bin, as czk-oracle\n"
    "                    vanilla-snap or czk gen-snap write them\n"
    "  --c1 FILE         read a C1 output (lotus-bench envelope or plain JSON)\n" CZK_SHAPE_USAGE
    "  --seed N          generator seed for --sector-size / custom shapes (default 1)\n"
    "  --partition K     the partition to synthesize (default 0)\n"
    "  --all             every partition, in parallel (one per thread, bounded by memory;\n"
    "                    each is checked right after its synthesis: inside the wall\n"
    "                    time, outside the synth column, which sums the workers' times)\n"
    "  -i, --iters N     timed iterations (default 3)\n"
    "  --lc KIND         LC storage variant (default vec)\n"
    "  --backend B       prove (default), witness or shape\n"
    "  --seq             prove backend, one partition: synthesize the challenges one\n"
    "                    after the other through the PROVE backend (default with\n"
    "                    --threads > 1: the parallel prover, challenges on all threads,\n"
    "                    written in place; identical assignment)\n"
    "  --no-nnz          skip the counting pass (non-zeros)\n"
    "  --no-check        skip the a*b = c check of every row\n"
    "  --pce MODE        off (default): the constraint-system synthesis above.\n"
    "                    on: pre-compiled constraint evaluation (src/pce/README.md): the\n"
    "                    shape's matrices from the cache ($CZK_CACHE_DIR, $XDG_CACHE_HOME/czk,\n"
    "                    ~/.cache/czk; recorded and written there on first use), then per\n"
    "                    partition the witness-only synthesis (challenges on all threads,\n"
    "                    SHA-256 on words) and a = A.w, b = B.w, c = C.w. Reports wall and\n"
    "                    CPU time of witness and mat-vec (median, min), the mat-vec's\n"
    "                    non-zeros per CPU second, peak RSS, bytes per non-zero;\n"
    "                    checks public inputs and a*b = c (unless --no-check).\n"
    "                    auto: on when the shape's PCE is cached, else off.\n"
    "                    both: off then on in the same run, and the ratio of the medians\n"
    "                    (the off run's memory is freed before the PCE is loaded).\n"
    "  --validate        (pce on) compare input, aux, a, b, c and the densities with the\n"
    "                    PROVE synthesis bit for bit; exit 1 naming the first differing\n"
    "                    vector and index. Both full assignments at once where memory\n"
    "                    allows; otherwise streamed: the PROVE synthesis a few challenges\n"
    "                    at a time against the PCE's rows (32GiB: ~5.3 GiB besides the\n"
    "                    PCE and its witness, ~14 GiB in all); refused, naming the\n"
    "                    memory needed, when even that does not fit.\n"
    "  --stream          (pce on) stream a, b, c through 3 x 2^20-row buffers instead of\n"
    "                    holding the full assignment (chosen automatically when the full\n"
    "                    assignment does not fit: 32GiB needs 4.8 GiB PCE + 3.9 GiB witness\n"
    "                    + 11.6 GiB a/b/c); the output says which mode ran.\n"
    "  --r1cs-digest     after the timed runs, synthesize the partition once more through\n"
    "                    the streaming digester (docs/r1cs-digest.md; WITNESS values) and\n"
    "                    print the counts and the two digests as the reference oracle\n"
    "                    does: lines 'inputs N', 'aux N', 'constraints M' (the circuit's\n"
    "                    own, without the input constraints), 'r1cs digest HEX',\n"
    "                    'assignment digest HEX' (and fields in --json). The timed run's\n"
    "                    assignment must have the same digest. One partition, --pce off.\n"
    "  --r1cs-dump FILE  (implies --r1cs-digest) write every constraint's hash h_c to FILE\n"
    "                    (\"CZKR1CS1\" dump; temporary name, then renamed)\n"
    "  --r1cs-compare REFDUMP  (implies --r1cs-digest) compare with a dump written by the\n"
    "                    reference (czk-oracle r1cs-digest --dump) or by czk: the counts\n"
    "                    that differ, the first constraint whose h_c differs, czk's terms\n"
    "                    of it and its namespace path (a second pass with names kept);\n"
    "                    exit 1 on any difference, 0 when identical.\n";

#define CMD "bench synth-only"

enum {
    OPT_C1 = CZK_OPT_FIRST_FREE,
    OPT_SEED,
    OPT_PARTITION,
    OPT_ALL,
    OPT_LC,
    OPT_BACKEND,
    OPT_NO_NNZ,
    OPT_NO_CHECK,
    OPT_SEQ,
    OPT_PCE,
    OPT_VALIDATE,
    OPT_STREAM,
    OPT_R1CS_DIGEST,
    OPT_R1CS_DUMP,
    OPT_R1CS_COMPARE,
    OPT_CIRCUIT,
    OPT_VANILLA
};

typedef struct opts {
    czk_shape_args shape;
    const char *c1;
    unsigned long long seed;
    long long partition, iters;
    int all, no_nnz, no_check, seq;
    int pce, validate, stream;
    czk_lc_kind lc;
    czk_cs_backend backend;
    int r1cs; /* --r1cs-digest (or implied) */
    const char *r1cs_dump, *r1cs_compare;
    const czk_proof_kind *circuit; /* --circuit: a registry kind (NULL: PoRep) */
    const char *vanilla; /* --vanilla DIR (PoSt, SnapDeals) */
    int have_seed;
} opts;

static int on_opt(void *ctx, int opt, const char *arg)
{
    opts *o = ctx;
    int rc;
    if (czk_shape_option(&o->shape, opt, arg, CMD, usage, &rc)) return rc;
    switch (opt) {
    case OPT_C1: o->c1 = arg; return 0;
    case OPT_VANILLA: o->vanilla = arg; return 0;
    case OPT_CIRCUIT:
        o->circuit = czk_proof_kind_find(arg);
        if (!o->circuit)
            return czk_cli_usage_error(CMD, usage, "--circuit wants porep, window-post, winning-post or snap, got '%s'",
                                       arg);
        if (o->circuit == &czk_kind_porep) o->circuit = NULL;
        return 0;
    case OPT_SEED:
        o->have_seed = 1;
        return czk_cli_opt_u64(&o->seed, arg, "--seed", CMD, usage);
    case OPT_PARTITION:
        if (czk_cli_parse_int(arg, 0, 1000, &o->partition))
            return czk_cli_usage_error(CMD, usage, "--partition wants 0..1000, got '%s'", arg);
        return 0;
    case OPT_ALL: o->all = 1; return 0;
    case OPT_NO_NNZ: o->no_nnz = 1; return 0;
    case OPT_NO_CHECK: o->no_check = 1; return 0;
    case OPT_SEQ: o->seq = 1; return 0;
    case OPT_VALIDATE: o->validate = 1; return 0;
    case OPT_STREAM: o->stream = 1; return 0;
    case OPT_R1CS_DIGEST: o->r1cs = 1; return 0;
    case OPT_R1CS_DUMP: o->r1cs = 1; o->r1cs_dump = arg; return 0;
    case OPT_R1CS_COMPARE: o->r1cs = 1; o->r1cs_compare = arg; return 0;
    case OPT_PCE:
        if (!strcmp(arg, "off")) o->pce = CZK__PCE_OFF;
        else if (!strcmp(arg, "on")) o->pce = CZK__PCE_ON;
        else if (!strcmp(arg, "auto")) o->pce = CZK__PCE_AUTO;
        else if (!strcmp(arg, "both")) o->pce = CZK__PCE_BOTH;
        else return czk_cli_usage_error(CMD, usage, "--pce wants on|off|auto|both, got '%s'", arg);
        return 0;
    case 'i':
        if (czk_cli_parse_int(arg, 1, 10000, &o->iters))
            return czk_cli_usage_error(CMD, usage, "--iters wants 1..10000, got '%s'", arg);
        return 0;
    case OPT_LC:
        if (czk_lc_kind_parse(&o->lc, arg) != CZK_OK)
            return czk_cli_usage_error(CMD, usage, "--lc wants vec|inline1|inline2|inline4, got '%s'", arg);
        return 0;
    case OPT_BACKEND:
        if (czk_cs_backend_parse(&o->backend, arg) != CZK_OK || o->backend == CZK_CS_TEST)
            return czk_cli_usage_error(CMD, usage, "--backend wants prove|witness|shape, got '%s'", arg);
        return 0;
    }
    return czk_cli_usage_error(CMD, usage, "unexpected option");
}

/* Bytes one partition's constraint system holds (backend vectors). */
static double cs_bytes(czk_cs_backend b, const czk_cs_sizes *z, const czk_porep_counts *n)
{
    double fr = 32.0, vals = (double)(z->n_inputs + z->n_aux) * fr;
    switch (b) {
    case CZK_CS_PROVE: return vals + 3.0 * (double)z->n_constraints * fr + (double)(z->n_aux + z->n_inputs) / 4.0;
    case CZK_CS_WITNESS: return vals;
    default: {
        double terms = n ? (double)(n->terms[0] + n->terms[1] + n->terms[2]) : 6.0 * (double)z->n_constraints;
        return terms * 40.0 + 3.0 * 8.0 * (double)z->n_constraints;
    }
    }
}

/* The assignment's public inputs are the verifier's. */
static czk_status check_inputs(const czk_fr *in, size_t ni, const czk_fc_c1 *c1, uint32_t k, size_t nin)
{
    czk_fr *pub = malloc(nin * sizeof *pub);
    if (!pub) return czk_error(CZK_ERR_NOMEM, "public inputs");
    pub[0] = CZK_FR_ONE;
    czk_status s = czk_porep_public_inputs(pub + 1, c1, k);
    if (s == CZK_OK && (ni != nin || memcmp(in, pub, nin * sizeof *pub) != 0))
        s = czk_error(CZK_ERR_INTERNAL, "partition %u: the circuit's public inputs differ from the verifier's", k);
    free(pub);
    return s;
}

/* Self-check of one synthesized partition. */
static czk_status check_partition(czk_cs *cs, const czk_cs_sizes *z, const czk_fc_c1 *c1, uint32_t k, int rows)
{
    if (cs->n_inputs != z->n_inputs || cs->n_aux != z->n_aux ||
        (cs->needs_constraints && cs->n_constraints != z->n_constraints))
        return czk_error(CZK_ERR_INTERNAL,
                         "partition %u: %u inputs, %u aux, %llu constraints; czk_porep_sizes says %llu, %llu, %llu", k,
                         cs->n_inputs, cs->n_aux, (unsigned long long)cs->n_constraints,
                         (unsigned long long)z->n_inputs, (unsigned long long)z->n_aux,
                         (unsigned long long)z->n_constraints);
    if (!cs->has_values) return CZK_OK;
    const czk_fr *in = NULL;
    size_t ni = 0;
    czk_status s;
    if (cs->backend == CZK_CS_PROVE) {
        czk_cs_assignment a;
        s = czk_cs_prove_get(cs, &a);
        in = a.input;
        ni = a.n_input;
        if (s == CZK_OK && rows) s = czk_cs_prove_check(cs);
    } else {
        const czk_fr *aux;
        size_t na;
        s = czk_cs_witness_get(cs, &in, &ni, &aux, &na);
    }
    if (s == CZK_OK) s = check_inputs(in, ni, c1, k, (size_t)z->n_inputs);
    return s;
}

typedef struct worker {
    czk_cs *cs;
    czk_status st;
    double synth_s;
    uint64_t circuits;
} worker;

static void *destroy_thread(void *p)
{
    czk_cs_destroy(p);
    return NULL;
}

/* Free a constraint system without waiting (tens of GiB take a while). */
static void destroy_background(czk_cs *cs, pthread_t *t, int *have)
{
    *have = pthread_create(t, NULL, destroy_thread, cs) == 0;
    if (!*have) czk_cs_destroy(cs);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}


/* Medians of a run (for --pce both). */
typedef struct run_summary {
    double wall, cpu, witness, eval;
    double wall_min, cpu_min;
    int ok;
} run_summary;

/* The PoRep partition for the digest pass. */
typedef struct porep_synth_ctx {
    const czk_fc_shape *shape;
    const czk_fc_c1 *c1;
    uint32_t partition;
} porep_synth_ctx;

static czk_status porep_synth(czk_cs *cs, const void *ctx)
{
    const porep_synth_ctx *p = ctx;
    return czk_porep_synthesize(cs, p->shape, p->c1, p->partition);
}

static czk__r1cs_opts r1cs_opts_of(const opts *o)
{
    czk__r1cs_opts r = {o->lc, o->r1cs_dump, o->r1cs_compare, o->partition, o->c1};
    return r;
}

/* One --pce off run: its plan (partitions, workers, memory), the workers'
 * constraint systems or the parallel prover, and the samples. */
typedef struct off_run {
    const opts *o;
    const czk_cli_common *com;
    const czk_fc_shape *shape;
    const czk_fc_c1 *c1;
    const czk_cs_sizes *z;
    const czk_porep_counts *cnt; /* NULL: no counting pass */
    FILE *out;
    uint32_t nparts, first;
    double per, avail; /* bytes per partition; available (0: unknown) */
    int threads, nw;   /* threads; workers */
    int par;           /* the parallel prover: one partition, or --all when one at a time is what memory allows */
    worker *w;
    czk_porep_prover *pp;
    double *wall, *syn, *cpu;
} off_run;

/* Partitions and workers (memory bound). */
static void off_plan(off_run *r)
{
    const opts *o = r->o;
    r->nparts = o->all ? r->shape->partitions : 1;
    r->first = o->all ? 0 : (uint32_t)o->partition;
    r->per = cs_bytes(o->backend, r->z, r->cnt);
    r->avail = czk_bench_mem_available();
    r->threads = czk_threads() > 0 ? czk_threads() : 1;
    r->nw = o->all ? r->threads : 1;
    if (r->nw > (int)r->nparts) r->nw = (int)r->nparts;
    if (r->avail > 0 && o->all) {
        int fit = (int)(r->avail * 0.9 / r->per);
        if (fit < r->nw) r->nw = fit < 1 ? 1 : fit;
    }
    r->par = o->backend == CZK_CS_PROVE && !o->seq && r->threads > 1 && r->nw == 1;
    if (r->avail > 0 && r->per > r->avail)
        fprintf(stderr, "czk " CMD ": warning: one partition needs ~%.1f GiB, %.1f GiB available\n",
                r->per / 1073741824.0, r->avail / 1073741824.0);
}

static void off_print_header(const off_run *r, double gen_s, double cnt_s)
{
    const opts *o = r->o;
    const czk_fc_shape *shape = r->shape;
    const czk_cs_sizes *z = r->z;
    const czk_porep_counts *cnt = r->cnt;
    FILE *out = r->out;
    if (r->com->json) {
        fprintf(out, "{");
        czk_bench_print_config(out, 1, "bench", "synth-only");
        fprintf(out,
                ",\"proof\":\"%s\",\"sector_size\":%llu,\"lc\":\"%s\",\"backend\":\"%s\",\"partitions\":%u,"
                "\"workers\":%d,\"parallel_prover\":%s,\"inputs\":%llu,\"aux\":%llu,\"constraints\":%llu,\"circuit_constraints\":%llu",
                czk_fc_proof_name(shape->proof), (unsigned long long)shape->sector_size, czk_lc_kind_name(o->lc),
                czk_cs_backend_name(o->backend), r->nparts, r->nw, r->par ? "true" : "false",
                (unsigned long long)z->n_inputs, (unsigned long long)z->n_aux, (unsigned long long)z->n_constraints,
                (unsigned long long)(z->n_constraints - z->n_inputs));
        if (cnt)
            fprintf(out,
                    ",\"nnz_a\":%llu,\"nnz_b\":%llu,\"nnz_c\":%llu,\"nonzero_coeff_a\":%llu,\"nonzero_coeff_b\":%llu,"
                    "\"nonzero_coeff_c\":%llu,\"count_pass_s\":%.3f",
                    (unsigned long long)cnt->terms[0], (unsigned long long)cnt->terms[1],
                    (unsigned long long)cnt->terms[2], (unsigned long long)cnt->nnz[0], (unsigned long long)cnt->nnz[1],
                    (unsigned long long)cnt->nnz[2], cnt_s);
        fprintf(out, ",\"iterations\":[");
        return;
    }
    char cfg[160];
    snprintf(cfg, sizeof cfg, "%s lc=%s backend=%s%s", czk_fc_proof_name(shape->proof), czk_lc_kind_name(o->lc),
             czk_cs_backend_name(o->backend), r->par ? " (parallel prover)" : "");
    czk_bench_print_config(out, 0, "bench", cfg);
    fprintf(out, "# %s: %u layers, %u partitions x %u challenges, trees %u,%u,%u h%u, tree D h%u (%s %.2f s)\n",
            czk_fc_proof_name(shape->proof), shape->layers, shape->partitions, shape->challenges, shape->base_arity,
            shape->sub_arity, shape->top_arity, shape->base_height, shape->d_height, o->c1 ? "read" : "generated",
            gen_s);
    fprintf(out, "# per partition: %llu inputs, %llu aux, %llu constraints (%llu + %llu input constraints)\n",
            (unsigned long long)z->n_inputs, (unsigned long long)z->n_aux, (unsigned long long)z->n_constraints,
            (unsigned long long)(z->n_constraints - z->n_inputs), (unsigned long long)z->n_inputs);
    if (cnt)
        fprintf(out,
                "# non-zeros (LC terms) A %llu, B %llu, C %llu; with a non-zero coefficient A %llu, B %llu, "
                "C %llu (counting pass %.2f s)\n",
                (unsigned long long)cnt->terms[0], (unsigned long long)cnt->terms[1],
                (unsigned long long)cnt->terms[2], (unsigned long long)cnt->nnz[0], (unsigned long long)cnt->nnz[1],
                (unsigned long long)cnt->nnz[2], cnt_s);
    if (r->par)
        fprintf(out,
                "# %u partition(s) one at a time, the %u challenges of each on %d threads (parallel prover), "
                "~%.2f GiB; %lld iterations\n",
                r->nparts, shape->challenges, r->threads, r->per / 1073741824.0, o->iters);
    else
        fprintf(out, "# %u partition(s) on %d worker(s), ~%.2f GiB each; %lld iterations\n", r->nparts, r->nw,
                r->per / 1073741824.0, o->iters);
    fprintf(out, "# cpu = process CPU time of the iteration (all threads; steadier than wall on a shared machine); "
                 "sys, faults = its system time and page faults\n");
    fprintf(out, "%5s %10s %10s %10s %10s %10s %8s %13s %12s %8s %12s %10s\n", "iter", "wall", "synth", "cpu", "sys",
            "faults", "circuits", "constraints", "aux", "inputs", "cons/s", "peakRSS");
}

/* One iteration through the parallel prover: the partitions one after the
 * other; wall and cpu exclude the checks. */
static czk_status off_iter_parallel(off_run *r, long long it, double *reg_sys, unsigned long long *reg_flt)
{
    const czk_cs_sizes *z = r->z;
    czk_status s = CZK_OK;
    r->wall[it] = r->syn[it] = r->cpu[it] = 0;
    for (uint32_t q = r->first; q < r->first + r->nparts && s == CZK_OK; q++) {
        double t0 = czk_now(), cpu0 = czk_cpu_now();
        czk_bench_usage u0, u1, du;
        czk_bench_usage_get(&u0);
        czk_perf_begin();
        s = czk_porep_prover_synthesize(r->pp, r->c1, q, r->threads);
        czk_perf_end();
        r->wall[it] += czk_now() - t0;
        r->cpu[it] += czk_cpu_now() - cpu0;
        czk_bench_usage_get(&u1);
        czk_bench_usage_sub(&du, &u1, &u0);
        *reg_sys += du.sys_s;
        *reg_flt += du.minor_faults + du.major_faults;
        if (s == CZK_OK && !r->o->no_check) s = czk_porep_prover_check(r->pp, r->threads);
        czk_cs_assignment asg;
        if (s == CZK_OK) s = czk_porep_prover_get(r->pp, &asg);
        if (s == CZK_OK) s = check_inputs(asg.input, asg.n_input, r->c1, q, (size_t)z->n_inputs);
        if (s == CZK_OK && (asg.n_aux != z->n_aux || asg.n_constraints != z->n_constraints))
            s = czk_error(CZK_ERR_INTERNAL, "parallel prover: counts differ from czk_porep_sizes");
    }
    r->syn[it] = r->wall[it];
    r->w[0].circuits = 1;
    return s;
}

/* One iteration on the workers (partition p on worker p mod nw); with
 * several workers each partition is checked right after its synthesis,
 * with one outside the timed section. 0, or 1 after saying what failed. */
static int off_iter_workers(off_run *r, long long it, double *reg_sys, unsigned long long *reg_flt)
{
    const opts *o = r->o;
    const int nw = r->nw;
    double t0 = czk_now(), cpu0 = czk_cpu_now();
    czk_bench_usage r0, r1, rd;
    czk_bench_usage_get(&r0);
    czk_perf_begin();
#pragma omp parallel for num_threads(nw) schedule(static, 1) if (nw > 1)
    for (int wi = 0; wi < nw; wi++) {
        worker *me = &r->w[wi];
        me->st = CZK_OK;
        me->synth_s = 0;
        me->circuits = 0;
        for (uint32_t p = (uint32_t)wi; p < r->nparts && me->st == CZK_OK; p += (uint32_t)nw) {
            czk_cs_reset(me->cs);
            double a = czk_now();
            me->st = czk_porep_synthesize(me->cs, r->shape, o->backend == CZK_CS_SHAPE ? NULL : r->c1, r->first + p);
            me->synth_s += czk_now() - a;
            if (me->st == CZK_OK) me->st = czk_cs_finalize(me->cs);
            if (me->st == CZK_OK && nw > 1) me->st = check_partition(me->cs, r->z, r->c1, r->first + p, !o->no_check);
            me->circuits++;
        }
    }
    czk_perf_end();
    r->wall[it] = czk_now() - t0;
    r->cpu[it] = czk_cpu_now() - cpu0;
    czk_bench_usage_get(&r1);
    czk_bench_usage_sub(&rd, &r1, &r0);
    *reg_sys = rd.sys_s;
    *reg_flt = rd.minor_faults + rd.major_faults;
    int failed = 0;
    r->syn[it] = 0;
    for (int wi = 0; wi < nw; wi++) {
        if (r->w[wi].st != CZK_OK) {
            fprintf(stderr, "czk " CMD ": %s\n", czk_last_error());
            failed = 1;
        }
        r->syn[it] += r->w[wi].synth_s;
    }
    /* one worker: check outside the timed section */
    if (!failed && nw == 1) {
        czk_status s = check_partition(r->w[0].cs, r->z, r->c1, r->first + r->nparts - 1, !o->no_check);
        if (s != CZK_OK) {
            fprintf(stderr, "czk " CMD ": check failed: %s\n", czk_last_error());
            failed = 1;
        }
    }
    return failed;
}

static void off_print_iter(const off_run *r, long long it, double reg_sys, unsigned long long reg_flt)
{
    const czk_cs_sizes *z = r->z;
    uint64_t circuits = r->par ? r->nparts : 0;
    for (int wi = 0; wi < r->nw && !r->par; wi++) circuits += r->w[wi].circuits;
    double cons = (double)(z->n_constraints - z->n_inputs) * (double)circuits;
    unsigned long long rss = czk_bench_peak_rss();
    if (r->com->json)
        fprintf(r->out,
                "%s{\"wall_s\":%.6f,\"synth_s\":%.6f,\"circuits\":%llu,\"constraints\":%.0f,\"aux\":%llu,"
                "\"inputs\":%llu,\"constraints_per_s\":%.0f,\"peak_rss_bytes\":%llu,\"cpu_s\":%.6f,"
                "\"sys_s\":%.6f,\"page_faults\":%llu}",
                it ? "," : "", r->wall[it], r->syn[it], (unsigned long long)circuits, cons,
                (unsigned long long)(z->n_aux * circuits), (unsigned long long)(z->n_inputs * circuits),
                cons / r->wall[it], rss, r->cpu[it], reg_sys, reg_flt);
    else {
        char a1[32], a2[32], a3[32], a4[32];
        fprintf(r->out, "%5lld %10s %10s %10s %10s %10llu %8llu %13.0f %12llu %8llu %12.0f %8.2fGiB\n", it,
                czk_bench_fmt_time(a1, r->wall[it]), czk_bench_fmt_time(a2, r->syn[it]),
                czk_bench_fmt_time(a3, r->cpu[it]), czk_bench_fmt_time(a4, reg_sys), reg_flt,
                (unsigned long long)circuits, cons, (unsigned long long)(z->n_aux * circuits),
                (unsigned long long)(z->n_inputs * circuits), cons / r->wall[it], (double)rss / 1073741824.0);
    }
    fflush(r->out);
}

/* The timed iterations: 0, or 1 after saying what failed. */
static int off_iterations(off_run *r)
{
    for (long long it = 0; it < r->o->iters; it++) {
        double reg_sys = 0; /* system time and page faults of the timed region */
        unsigned long long reg_flt = 0;
        if (r->par) {
            if (off_iter_parallel(r, it, &reg_sys, &reg_flt) != CZK_OK) {
                fprintf(stderr, "czk " CMD ": %s\n", czk_last_error());
                return 1;
            }
        } else if (off_iter_workers(r, it, &reg_sys, &reg_flt)) {
            return 1;
        }
        off_print_iter(r, it, reg_sys, reg_flt);
    }
    return 0;
}

/* --r1cs-digest: the timed run's assignment digest, before its memory goes; 1 if there is one. */
static int off_timed_digest(const off_run *r, uint8_t out[32])
{
    czk_cs_assignment asg;
    const czk_fr *in, *aux;
    size_t ni, na;
    if (r->par && czk_porep_prover_get(r->pp, &asg) == CZK_OK) {
        czk_cs_r1cs_digest_assignment(out, asg.input, asg.n_input, asg.aux, asg.n_aux);
        return 1;
    }
    if (!r->par && r->o->backend == CZK_CS_PROVE && czk_cs_prove_get(r->w[0].cs, &asg) == CZK_OK) {
        czk_cs_r1cs_digest_assignment(out, asg.input, asg.n_input, asg.aux, asg.n_aux);
        return 1;
    }
    if (!r->par && r->o->backend == CZK_CS_WITNESS && czk_cs_witness_get(r->w[0].cs, &in, &ni, &aux, &na) == CZK_OK) {
        czk_cs_r1cs_digest_assignment(out, in, ni, aux, na);
        return 1;
    }
    return 0;
}

/* Minima and medians of the iterations (sorted here) into sum (or NULL),
 * printed with the checks and the digest pass' result. */
static void off_print_summary(off_run *r, const czk__r1cs_result *rr, const czk__r1cs_opts *ro, int r1cs_show,
                              int r1cs_bad, run_summary *sum)
{
    const opts *o = r->o;
    const size_t n = (size_t)o->iters;
    double *wall = r->wall, *syn = r->syn, *cpu = r->cpu;
    FILE *out = r->out;
    qsort(wall, n, sizeof(double), cmp_double);
    qsort(syn, n, sizeof(double), cmp_double);
    qsort(cpu, n, sizeof(double), cmp_double);
    double wmed = wall[n / 2], smed = syn[n / 2];
    if (sum) {
        sum->wall = wmed;
        sum->cpu = cpu[n / 2];
        sum->wall_min = wall[0];
        sum->cpu_min = cpu[0];
    }
    double cons = (double)(r->z->n_constraints - r->z->n_inputs) * r->nparts;
    if (r->com->json) {
        fprintf(out, "],\"wall_min_s\":%.6f,\"wall_median_s\":%.6f,\"synth_min_s\":%.6f,\"synth_median_s\":%.6f,"
                     "\"cpu_min_s\":%.6f,\"constraints_per_s\":%.0f,\"peak_rss_bytes\":%llu",
                wall[0], wmed, syn[0], smed, cpu[0], cons / wmed, czk_bench_peak_rss());
        if (r1cs_show) czk__bench_r1cs_print_json(out, rr, ro);
        fprintf(out, ",\"ok\":%s}\n", r1cs_bad ? "false" : "true");
        if (r1cs_show && o->r1cs_compare && !rr->diff.identical) czk__bench_r1cs_print_diff(stderr, rr, ro);
        return;
    }
    char a1[32], a2[32], a3[32], a4[32], a5[32];
    fprintf(out, "min    %10s %10s %10s   median wall %s / synth %s   %.0f constraints/s (median wall)   peak RSS %.2f GiB\n",
            czk_bench_fmt_time(a1, wall[0]), czk_bench_fmt_time(a2, syn[0]), czk_bench_fmt_time(a5, cpu[0]),
            czk_bench_fmt_time(a3, wmed), czk_bench_fmt_time(a4, smed), cons / wmed,
            (double)czk_bench_peak_rss() / 1073741824.0);
    fprintf(out, "checks: counts = czk_porep_sizes%s%s: ok\n", o->backend == CZK_CS_SHAPE ? "" : ", public inputs",
            o->backend == CZK_CS_PROVE && !o->no_check ? ", a*b = c on every row" : "");
    if (r1cs_show) czk__bench_r1cs_print_text(out, rr, ro);
}

/* --pce off: the constraint-system synthesis (PROVE / WITNESS / SHAPE backend
 * or the parallel prover). */
static int run_off(const opts *o, const czk_cli_common *com, const czk_fc_shape *shape, const czk_fc_c1 *c1,
                   const czk_cs_sizes *z, const czk_porep_counts *cnt, int have_cnt, double gen_s, double cnt_s,
                   run_summary *sum)
{
    off_run r = {.o = o, .com = com, .shape = shape, .c1 = c1, .z = z, .cnt = have_cnt ? cnt : NULL, .out = stdout};
    czk_status s;
    off_plan(&r);
    off_print_header(&r, gen_s, cnt_s);
    r.w = calloc((size_t)r.nw, sizeof *r.w);
    r.wall = calloc((size_t)o->iters, sizeof(double));
    r.syn = calloc((size_t)o->iters, sizeof(double));
    r.cpu = calloc((size_t)o->iters, sizeof(double));
    if (!r.w || !r.wall || !r.syn || !r.cpu) return czk_cli_fail(CMD, czk_error(CZK_ERR_NOMEM, "samples"), "allocating");
    if (r.par) {
        s = czk_porep_prover_create(&r.pp, shape, o->lc);
        if (s != CZK_OK) return czk_cli_fail(CMD, s, "creating the parallel prover");
    } else
        for (int i = 0; i < r.nw; i++) {
            s = czk_cs_create(&r.w[i].cs, o->backend, o->lc, z);
            if (s != CZK_OK) return czk_cli_fail(CMD, s, "creating the constraint system");
        }
    int failed = off_iterations(&r);
    uint8_t timed_asg[32];
    const int have_timed = o->r1cs && !failed && off_timed_digest(&r, timed_asg);
    pthread_t bg[64];
    int have_bg[64] = {0};
    czk_porep_prover_destroy(r.pp);
    for (int i = 0; i < r.nw && !r.par; i++) {
        if (i < 64) destroy_background(r.w[i].cs, &bg[i], &have_bg[i]);
        else czk_cs_destroy(r.w[i].cs);
    }
    czk__r1cs_result rr;
    memset(&rr, 0, sizeof rr);
    const czk__r1cs_opts ro = r1cs_opts_of(o);
    int r1cs_bad = 0; /* the digest pass failed or the comparison found a difference */
    int r1cs_show = 0;
    if (o->r1cs && !failed) {
        for (int i = 0; i < r.nw && i < 64 && !r.par; i++)
            if (have_bg[i]) {
                pthread_join(bg[i], NULL); /* the digest pass needs the memory */
                have_bg[i] = 0;
            }
        const porep_synth_ctx pc = {shape, c1, (uint32_t)o->partition};
        s = czk__bench_r1cs_run(&rr, &ro, porep_synth, &pc, z, have_timed ? timed_asg : NULL);
        if (s != CZK_OK) fprintf(stderr, "czk " CMD ": r1cs digest: %s\n", czk_last_error());
        r1cs_bad = s != CZK_OK || (o->r1cs_compare && !rr.diff.identical);
        r1cs_show = s == CZK_OK;
    }
    if (sum) memset(sum, 0, sizeof *sum);
    if (!failed) off_print_summary(&r, &rr, &ro, r1cs_show, r1cs_bad, sum);
    else if (com->json) fprintf(r.out, "],\"ok\":false}\n");
    for (int i = 0; i < r.nw && i < 64 && !r.par; i++)
        if (have_bg[i]) pthread_join(bg[i], NULL);
    czk__bench_r1cs_clear(&rr);
    free(r.w);
    free(r.wall);
    free(r.syn);
    free(r.cpu);
    if (r1cs_bad) failed = 1;
    if (sum) sum->ok = !failed;
    return failed ? CZK_EXIT_FAIL : CZK_EXIT_OK;
}


static void pce_progress(void *ctx, const char *stage, double f)
{
    czk_progress_fraction(ctx, stage, f);
}

/* One --pce on run: the PCE and its workspace, the memory plan, the samples. */
typedef struct pce_run {
    const opts *o;
    const czk_cli_common *com;
    const czk_fc_shape *shape;
    const czk_fc_c1 *c1;
    const czk_cs_sizes *z;
    FILE *out;
    int threads;
    czk_pce *p;
    czk_pce_porep_work *w;
    czk_pce_info in;
    int built;
    double load_s;
    czk_bench_usage ld;           /* loading (or building) the PCE */
    double wit_b, abc_b, avail;   /* bytes: the witness, a/b/c, available (0: unknown) */
    int stream;                   /* a, b, c streamed through 3 x PCE_CHUNK-row buffers */
    uint32_t nparts, first;
    czk_fr *buf;                  /* the streamed chunks */
    double *wall, *cpu, *wit, *ev;
    double cw_best, ce_best;      /* least CPU time of the witness, of the mat-vec */
} pce_run;

#define PCE_CHUNK ((uint64_t)1024 * CZK_PCE_BLOCK)
#define GiB 1073741824.0

static void pce_print_header(const pce_run *r)
{
    const opts *o = r->o;
    const czk_fc_shape *shape = r->shape;
    const czk_cs_sizes *z = r->z;
    const czk_pce_info *in = &r->in;
    const czk_bench_usage *ld = &r->ld;
    FILE *out = r->out;
    if (r->com->json) {
        fprintf(out, "{");
        czk_bench_print_config(out, 1, "bench", "synth-only --pce on");
        fprintf(out,
                ",\"pce\":\"on\",\"proof\":\"%s\",\"sector_size\":%llu,\"partitions\":%u,\"partition\":%lld,"
                "\"inputs\":%llu,\"aux\":%llu,\"constraints\":%llu,\"circuit_constraints\":%llu,\"rows\":%llu,"
                "\"cols\":%llu,\"nnz_a\":%llu,\"nnz_b\":%llu,\"nnz_c\":%llu,\"pce_bytes\":%zu,\"bytes_per_nnz\":%.4f,"
                "\"pce_built\":%s,\"pce_load_s\":%.3f,\"pce_load_cpu_s\":%.3f,\"pce_load_sys_s\":%.3f,"
                "\"pce_load_page_faults\":%llu,\"mode\":\"%s\",\"iterations\":[",
                czk_fc_proof_name(shape->proof), (unsigned long long)shape->sector_size, r->nparts,
                o->all ? -1LL : o->partition, (unsigned long long)z->n_inputs, (unsigned long long)z->n_aux,
                (unsigned long long)z->n_constraints, (unsigned long long)(z->n_constraints - z->n_inputs),
                (unsigned long long)in->rows, (unsigned long long)in->cols, (unsigned long long)in->nnz[0],
                (unsigned long long)in->nnz[1], (unsigned long long)in->nnz[2], in->bytes, in->bytes_per_nnz,
                r->built ? "true" : "false", r->load_s, ld->user_s + ld->sys_s, ld->sys_s,
                ld->minor_faults + ld->major_faults, r->stream ? "stream" : "full");
        return;
    }
    const double fr = (double)sizeof(czk_fr);
    char cfg[96];
    snprintf(cfg, sizeof cfg, "%s pce=on", czk_fc_proof_name(shape->proof));
    czk_bench_print_config(out, 0, "bench", cfg);
    fprintf(out,
            "# PCE %s in %.2f s (cpu %.2f s, sys %.2f s, %llu page faults): %llu rows, %llu columns, non-zeros "
            "A %llu, B %llu, C %llu; %.2f GiB, %.3f bytes/non-zero\n",
            r->built ? "built (now cached)" : "read from the cache", r->load_s, ld->user_s + ld->sys_s, ld->sys_s,
            ld->minor_faults + ld->major_faults, (unsigned long long)in->rows, (unsigned long long)in->cols,
            (unsigned long long)in->nnz[0], (unsigned long long)in->nnz[1], (unsigned long long)in->nnz[2],
            (double)in->bytes / GiB, in->bytes_per_nnz);
    fprintf(out, "# mode: %s; witness %.2f GiB, a/b/c %.2f GiB, %.1f GiB available\n",
            r->stream ? "streamed a,b,c (3 x 2^20-row chunks, checked chunk by chunk)" : "full assignment",
            r->wit_b / GiB, r->stream ? 3.0 * (double)PCE_CHUNK * fr / GiB : r->abc_b / GiB, r->avail / GiB);
    if (o->all)
        fprintf(out, "# %u partitions", r->nparts);
    else
        fprintf(out, "# partition %u", r->first);
    fprintf(out, "; witness: challenges on %d threads; mat-vec: row blocks on %d threads; %lld iterations\n",
            r->threads, r->threads, o->iters);
    fprintf(out, "# cpu = process CPU time (all threads); checks outside the timed sections; "
                 "Mnnz/cpu-s = non-zeros of A, B, C per CPU second of mat-vec\n");
    fprintf(out, "# sys, faults = system time and page faults of the timed sections (full assignment only)\n");
    fprintf(out, "%5s %10s %10s %10s %10s %10s %10s %10s %10s %11s %10s\n", "iter", "wall", "witness", "mat-vec", "cpu",
            "cpu wit", "cpu mv", "sys", "faults", "Mnnz/cpu-s", "peakRSS");
}

/* Partition q into the full assignment (timed), then a*b = c (outside the timing). */
static czk_status pce_partition_full(pce_run *r, uint32_t q, czk_pce_timings *t, const czk_fr **inp, size_t *ni,
                                     double *reg_sys, unsigned long long *reg_flt)
{
    czk_cs_assignment asg;
    czk_bench_usage u0, u1, du;
    czk_bench_usage_get(&u0);
    czk_perf_begin();
    czk_status s = czk_pce_porep_synthesize(r->w, r->c1, q, r->threads, &asg, t);
    czk_perf_end();
    czk_bench_usage_get(&u1);
    czk_bench_usage_sub(&du, &u1, &u0);
    *reg_sys += du.sys_s;
    *reg_flt += du.minor_faults + du.major_faults;
    *inp = asg.input;
    *ni = asg.n_input;
    if (s == CZK_OK && !r->o->no_check) s = czk_pce_check(&asg, r->threads);
    return s;
}

/* Partition q's witness, then a, b, c chunk by chunk (timed), each chunk
 * checked (a*b = c, outside the timing) and dropped. */
static czk_status pce_partition_streamed(pce_run *r, uint32_t q, czk_pce_timings *t, const czk_fr **inp, size_t *ni)
{
    const czk_fr *aux = NULL;
    size_t na = 0;
    czk_fr *buf = r->buf;
    const int threads = r->threads;
    double ta = czk_now(), ca = czk_cpu_now();
    czk_perf_begin();
    czk_status s = czk_pce_porep_witness(r->w, r->c1, q, inp, ni, &aux, &na);
    t->witness_s = czk_now() - ta;
    t->witness_cpu_s = czk_cpu_now() - ca;
    for (uint64_t r0 = 0; s == CZK_OK && r0 < r->in.rows; r0 += PCE_CHUNK) {
        uint64_t r1 = r0 + PCE_CHUNK < r->in.rows ? r0 + PCE_CHUNK : r->in.rows;
        double te = czk_now(), ce = czk_cpu_now();
        s = czk_pce_eval_range(r->p, buf, buf + PCE_CHUNK, buf + 2 * PCE_CHUNK, r0, r1, *inp, *ni, aux, na, threads);
        t->eval_s += czk_now() - te;
        t->eval_cpu_s += czk_cpu_now() - ce;
        if (r->o->no_check) continue;
        czk_perf_end();
        /* a*b = c on the chunk (outside the timed evaluation) */
        int64_t bad = -1, m = (int64_t)(r1 - r0);
#pragma omp parallel for num_threads(threads) schedule(static) reduction(max : bad)
        for (int64_t i = 0; i < m; i++) {
            czk_fr ab;
            czk_fr_mul(&ab, &buf[i], &buf[PCE_CHUNK + (uint64_t)i]);
            if (!czk_fr_eq(&ab, &buf[2 * PCE_CHUNK + (uint64_t)i]) && bad < 0) bad = i;
        }
        if (bad >= 0)
            s = czk_error(CZK_ERR_UNSATISFIED, "PCE assignment: row %llu: a*b != c",
                          (unsigned long long)(r0 + (uint64_t)bad));
        czk_perf_begin();
    }
    czk_perf_end();
    return s;
}

/* --validate (first iteration): partition q against the PROVE synthesis,
 * full or streamed as memory allows. */
static czk_status pce_validate(const pce_run *r, uint32_t q)
{
    const int threads = r->threads;
    const int vstream = r->stream || (r->avail > 0 && (double)czk_pce_porep_validate_bytes(r->w, 0, threads) >
                                                          0.9 * czk_bench_mem_available());
    const double need = (double)czk_pce_porep_validate_bytes(r->w, vstream, threads),
                 have = czk_bench_mem_available();
    if (have > 0 && need > 0.95 * have)
        return czk_error(CZK_ERR_NOMEM,
                         "--validate: the %s comparison with the PROVE synthesis needs %.1f GiB more, %.1f GiB "
                         "available (the PCE and its witness are held: %.1f GiB)",
                         vstream ? "streamed" : "full", need / GiB, have / GiB,
                         ((double)r->in.bytes + r->wit_b) / GiB);
    double tv = czk_now();
    czk_status s = czk_pce_porep_validate(r->w, r->c1, q, threads, vstream);
    if (s == CZK_OK && !r->com->json)
        fprintf(r->out,
                "# validate (partition %u): input, aux, a, b, c and densities equal the PROVE synthesis "
                "bit for bit (%s, %.1f GiB, %.2f s)\n",
                q, vstream ? "streamed: PROVE rows window by window vs the PCE rows" : "full assignments",
                need / GiB, czk_now() - tv);
    return s;
}

static void pce_print_iter(const pce_run *r, long long it, const czk_pce_timings *tt, double reg_sys,
                           unsigned long long reg_flt)
{
    FILE *out = r->out;
    const int json = r->com->json, stream = r->stream;
    const double nnz_run = (double)(r->in.nnz[0] + r->in.nnz[1] + r->in.nnz[2]) * r->nparts; /* per iteration */
    unsigned long long rss = czk_bench_peak_rss();
    const double mv_rate = tt->eval_cpu_s > 0 ? nnz_run / tt->eval_cpu_s : 0;
    if (json) {
        /* sys and faults are the full assignment's only (as in the text table) */
        fprintf(out,
                "%s{\"wall_s\":%.6f,\"witness_s\":%.6f,\"matvec_s\":%.6f,\"cpu_s\":%.6f,\"witness_cpu_s\":%.6f,"
                "\"matvec_cpu_s\":%.6f,\"matvec_nnz_per_cpu_s\":%.0f,\"peak_rss_bytes\":%llu",
                it ? "," : "", r->wall[it], tt->witness_s, tt->eval_s, r->cpu[it], tt->witness_cpu_s, tt->eval_cpu_s,
                mv_rate, rss);
        if (!stream) fprintf(out, ",\"sys_s\":%.6f,\"page_faults\":%llu", reg_sys, reg_flt);
        fprintf(out, "}");
    } else {
        char a1[32], a2[32], a3[32], a4[32], a5[32], a6[32], a7[32], a8[32];
        snprintf(a8, sizeof a8, "%llu", reg_flt);
        fprintf(out, "%5lld %10s %10s %10s %10s %10s %10s %10s %10s %11.1f %8.2fGiB\n", it,
                czk_bench_fmt_time(a1, r->wall[it]), czk_bench_fmt_time(a2, tt->witness_s),
                czk_bench_fmt_time(a3, tt->eval_s), czk_bench_fmt_time(a4, r->cpu[it]),
                czk_bench_fmt_time(a5, tt->witness_cpu_s), czk_bench_fmt_time(a6, tt->eval_cpu_s),
                stream ? "-" : czk_bench_fmt_time(a7, reg_sys), stream ? "-" : a8, mv_rate * 1e-6, (double)rss / GiB);
    }
    fflush(out);
}

/* One iteration: every partition of the run, each checked; the timings summed. */
static czk_status pce_iteration(pce_run *r, long long it)
{
    czk_pce_timings tt = {0, 0, 0, 0};
    double reg_sys = 0; /* system time and page faults of the timed sections */
    unsigned long long reg_flt = 0;
    czk_status s = CZK_OK;
    for (uint32_t q = r->first; q < r->first + r->nparts && s == CZK_OK; q++) {
        czk_pce_timings t = {0, 0, 0, 0};
        const czk_fr *inp = NULL;
        size_t ni = 0;
        if (!r->stream) s = pce_partition_full(r, q, &t, &inp, &ni, &reg_sys, &reg_flt);
        else s = pce_partition_streamed(r, q, &t, &inp, &ni);
        if (s == CZK_OK) s = check_inputs(inp, ni, r->c1, q, (size_t)r->z->n_inputs);
        if (s == CZK_OK && r->o->validate && it == 0) s = pce_validate(r, q);
        tt.witness_s += t.witness_s;
        tt.eval_s += t.eval_s;
        tt.witness_cpu_s += t.witness_cpu_s;
        tt.eval_cpu_s += t.eval_cpu_s;
    }
    if (s != CZK_OK) return s;
    r->wit[it] = tt.witness_s;
    r->ev[it] = tt.eval_s;
    r->wall[it] = tt.witness_s + tt.eval_s;
    r->cpu[it] = tt.witness_cpu_s + tt.eval_cpu_s;
    if (tt.witness_cpu_s < r->cw_best) r->cw_best = tt.witness_cpu_s;
    if (tt.eval_cpu_s < r->ce_best) r->ce_best = tt.eval_cpu_s;
    pce_print_iter(r, it, &tt, reg_sys, reg_flt);
    return CZK_OK;
}

/* Minima and medians (into sum, or NULL) and the checks. */
static void pce_print_summary(pce_run *r, run_summary *sum)
{
    const opts *o = r->o;
    FILE *out = r->out;
    czk_bench_stats sw, sc, swi, sev;
    czk_bench_stats_of(&sw, r->wall, (size_t)o->iters);
    czk_bench_stats_of(&sc, r->cpu, (size_t)o->iters);
    czk_bench_stats_of(&swi, r->wit, (size_t)o->iters);
    czk_bench_stats_of(&sev, r->ev, (size_t)o->iters);
    if (sum) {
        sum->ok = 1;
        sum->wall = sw.median;
        sum->cpu = sc.median;
        sum->witness = swi.median;
        sum->wall_min = sw.min;
        sum->cpu_min = sc.min;
        sum->eval = sev.median;
    }
    const double nnz_run = (double)(r->in.nnz[0] + r->in.nnz[1] + r->in.nnz[2]) * r->nparts;
    const double mv_best = r->ce_best > 0 ? nnz_run / r->ce_best : 0;
    if (r->com->json) {
        fprintf(out,
                "],\"wall_min_s\":%.6f,\"wall_median_s\":%.6f,\"witness_min_s\":%.6f,\"witness_median_s\":%.6f,"
                "\"matvec_min_s\":%.6f,\"matvec_median_s\":%.6f,\"cpu_min_s\":%.6f,\"cpu_median_s\":%.6f,"
                "\"witness_cpu_min_s\":%.6f,\"matvec_cpu_min_s\":%.6f,\"matvec_nnz_per_cpu_s\":%.0f,"
                "\"validated\":%s,\"peak_rss_bytes\":%llu,\"ok\":true}\n",
                sw.min, sw.median, swi.min, swi.median, sev.min, sev.median, sc.min, sc.median, r->cw_best,
                r->ce_best, mv_best, o->validate ? "true" : "false", czk_bench_peak_rss());
        return;
    }
    char a1[32], a2[32], a3[32], a4[32], a5[32], a6[32], a7[32];
    fprintf(out,
            "min    %10s   median wall %s = witness %s + mat-vec %s; cpu median %s (best witness %s, mat-vec "
            "%s); peak RSS %.2f GiB; %.3f bytes/non-zero\n",
            czk_bench_fmt_time(a1, sw.min), czk_bench_fmt_time(a2, sw.median), czk_bench_fmt_time(a3, swi.median),
            czk_bench_fmt_time(a4, sev.median), czk_bench_fmt_time(a5, sc.median), czk_bench_fmt_time(a6, r->cw_best),
            czk_bench_fmt_time(a7, r->ce_best), (double)czk_bench_peak_rss() / GiB, r->in.bytes_per_nnz);
    fprintf(out, "best   wall witness %s, mat-vec %s; mat-vec %.1f M non-zeros per CPU second\n",
            czk_bench_fmt_time(a1, swi.min), czk_bench_fmt_time(a2, sev.min), mv_best * 1e-6);
    fprintf(out, "checks: public inputs = the verifier's%s%s: ok\n", o->no_check ? "" : ", a*b = c on every row",
            o->validate ? ", bit-exact against the PROVE synthesis" : "");
}

/* The shape's PCE from the cache (or built), its workspace, and the memory
 * plan: a full assignment, or a, b, c streamed when it does not fit. */
static int pce_open(pce_run *r)
{
    const opts *o = r->o;
    czk_progress pg;
    czk_progress_init(&pg, czk_cli_progress_enabled(r->com));
    double t0 = czk_now();
    czk_bench_usage l0, l1;
    czk_bench_usage_get(&l0);
    czk_status s = czk_kind_pce_get(&r->p, &czk_kind_porep, r->shape, pce_progress, &pg, &r->built);
    czk_progress_done(&pg);
    if (s != CZK_OK) return czk_cli_fail(CMD, s, "loading the PCE");
    r->load_s = czk_now() - t0;
    czk_bench_usage_get(&l1);
    czk_bench_usage_sub(&r->ld, &l1, &l0);
    czk_pce_info_get(r->p, &r->in);
    const double fr = (double)sizeof(czk_fr);
    r->wit_b = (double)(r->z->n_inputs + r->z->n_aux) * fr;
    r->abc_b = 3.0 * (double)r->in.rows * fr;
    r->avail = czk_bench_mem_available();
    r->stream = o->stream || (r->avail > 0 && r->wit_b + r->abc_b > 0.9 * r->avail);
    r->nparts = o->all ? r->shape->partitions : 1;
    r->first = o->all ? 0 : (uint32_t)o->partition;
    s = czk_pce_porep_work_create(&r->w, r->p, r->shape);
    if (s != CZK_OK) return czk_cli_fail(CMD, s, "PCE workspace");
    czk_pce_porep_work_set_threads(r->w, r->threads);
    return CZK_EXIT_OK;
}

/* --pce on: the cached pre-compiled matrices (built on first use), the
 * parallel witness-only synthesis and the sparse evaluation a, b, c; a full
 * assignment when memory allows, otherwise a, b, c streamed through row
 * chunks (checked and dropped chunk by chunk). */
static int run_pce(const opts *o, const czk_cli_common *com, const czk_fc_shape *shape, const czk_fc_c1 *c1,
                   const czk_cs_sizes *z, run_summary *sum)
{
    pce_run r = {.o = o, .com = com, .shape = shape, .c1 = c1, .z = z, .out = stdout, .cw_best = 1e30,
                 .ce_best = 1e30};
    r.threads = czk_threads() > 0 ? czk_threads() : 1;
    if (pce_open(&r) != CZK_EXIT_OK) {
        czk_pce_destroy(r.p);
        return CZK_EXIT_FAIL;
    }
    czk_status s = CZK_OK;
    if (!r.stream) s = czk_pce_porep_work_reserve(r.w, r.threads);
    pce_print_header(&r);
    r.wall = calloc((size_t)o->iters, sizeof(double));
    r.cpu = calloc((size_t)o->iters, sizeof(double));
    r.wit = calloc((size_t)o->iters, sizeof(double));
    r.ev = calloc((size_t)o->iters, sizeof(double));
    if (!r.wall || !r.cpu || !r.wit || !r.ev) s = czk_error(CZK_ERR_NOMEM, "samples");
    if (s == CZK_OK && r.stream && !(r.buf = malloc(3 * (size_t)PCE_CHUNK * sizeof(czk_fr))))
        s = czk_error(CZK_ERR_NOMEM, "PCE chunk buffers");
    for (long long it = 0; it < o->iters && s == CZK_OK; it++) s = pce_iteration(&r, it);
    if (s == CZK_OK) {
        pce_print_summary(&r, sum);
    } else {
        if (com->json) fprintf(r.out, "],\"ok\":false}\n");
        fprintf(stderr, "czk " CMD ": %s\n", czk_last_error());
    }
    free(r.buf);
    free(r.wall);
    free(r.cpu);
    free(r.wit);
    free(r.ev);
    czk_pce_porep_work_destroy(r.w);
    czk_pce_destroy(r.p);
    return s == CZK_OK ? CZK_EXIT_OK : CZK_EXIT_FAIL;
}

#undef GiB

static void print_compare(const czk_cli_common *com, const run_summary *off, const run_summary *on)
{
    if (com->json) {
        if (off->ok && on->ok)
            printf(",\"speedup_wall\":%.4f,\"speedup_cpu\":%.4f,\"speedup_wall_min\":%.4f,\"speedup_cpu_min\":%.4f}\n",
                   off->wall / on->wall, off->cpu / on->cpu, off->wall_min / on->wall_min, off->cpu_min / on->cpu_min);
        else
            printf(",\"ok\":false}\n");
        return;
    }
    if (!off->ok || !on->ok) return;
    char a1[32], a2[32], a3[32], a4[32];
    printf("\npce off vs on (same run): median wall %s -> %s (%.2fx), median cpu %s -> %s (%.2fx)\n",
           czk_bench_fmt_time(a1, off->wall), czk_bench_fmt_time(a2, on->wall), off->wall / on->wall,
           czk_bench_fmt_time(a3, off->cpu), czk_bench_fmt_time(a4, on->cpu), off->cpu / on->cpu);
    printf("                          min wall %s -> %s (%.2fx), min cpu %s -> %s (%.2fx)\n",
           czk_bench_fmt_time(a1, off->wall_min), czk_bench_fmt_time(a2, on->wall_min), off->wall_min / on->wall_min,
           czk_bench_fmt_time(a3, off->cpu_min), czk_bench_fmt_time(a4, on->cpu_min), off->cpu_min / on->cpu_min);
    printf("(peak RSS is the process's: the on run's column includes the off run's peak)\n");
}

/* --circuit window-post|winning-post|snap: one partition of that kind,
 * generated or read (--vanilla DIR). */
static int synth_kind(const opts *o, const czk_cli_common *com)
{
    const czk__r1cs_opts ro = r1cs_opts_of(o);
    const czk__kind_bench b = {.kind = o->circuit,
                               .usage = usage,
                               .shape_args = &o->shape,
                               .porep_opt = o->c1 ? "--c1" : o->all ? "--all" : NULL,
                               .vanilla_dir = o->vanilla,
                               .seed = o->seed,
                               .have_seed = o->have_seed,
                               .partition = o->partition,
                               .iters = o->iters,
                               .lc = o->lc,
                               .backend = o->backend,
                               .no_count = o->no_nnz,
                               .no_check = o->no_check,
                               .seq = o->seq,
                               .pce = o->pce,
                               .validate = o->validate,
                               .stream = o->stream,
                               .r1cs = o->r1cs ? &ro : NULL};
    return czk__bench_synth_kind(&b, com);
}

static int bench_synth_main(int argc, char **argv)
{
    opts o;
    memset(&o, 0, sizeof o);
    o.seed = 1;
    o.iters = 3;
    o.lc = CZK_LC_VEC;
    o.backend = CZK_CS_PROVE;
    static const struct option lopts[] = {
        CZK_SHAPE_OPTIONS,
        CZK_POST_SHAPE_OPTIONS,
        {"circuit", required_argument, 0, OPT_CIRCUIT},
        {"c1", required_argument, 0, OPT_C1},
        {"vanilla", required_argument, 0, OPT_VANILLA},
        {"seed", required_argument, 0, OPT_SEED},
        {"partition", required_argument, 0, OPT_PARTITION},
        {"all", no_argument, 0, OPT_ALL},
        {"iters", required_argument, 0, 'i'},
        {"lc", required_argument, 0, OPT_LC},
        {"backend", required_argument, 0, OPT_BACKEND},
        {"no-nnz", no_argument, 0, OPT_NO_NNZ},
        {"no-check", no_argument, 0, OPT_NO_CHECK},
        {"seq", no_argument, 0, OPT_SEQ},
        {"pce", required_argument, 0, OPT_PCE},
        {"validate", no_argument, 0, OPT_VALIDATE},
        {"stream", no_argument, 0, OPT_STREAM},
        {"r1cs-digest", no_argument, 0, OPT_R1CS_DIGEST},
        {"r1cs-dump", required_argument, 0, OPT_R1CS_DUMP},
        {"r1cs-compare", required_argument, 0, OPT_R1CS_COMPARE},
        {0, 0, 0, 0},
    };
    czk_cli_common com;
    int rc = czk_cli_parse(argc, argv, CMD, usage, lopts, &o, on_opt, &com, NULL);
    if (rc != CZK_CLI_CONTINUE) return rc;
    if (o.circuit) return synth_kind(&o, &com);
    if (o.vanilla) return czk_cli_usage_error(CMD, usage, "--vanilla DIR is for --circuit window-post|winning-post");
    if (o.c1 && (o.shape.have_size || o.shape.have_custom))
        return czk_cli_usage_error(CMD, usage, "--c1 and a shape (--sector-size / custom) exclude each other");
    if (!o.c1 && !o.shape.have_size && !o.shape.have_custom)
        return czk_cli_usage_error(CMD, usage, "give --c1 FILE, --sector-size S or a custom shape");
    if (o.all && o.partition)
        return czk_cli_usage_error(CMD, usage, "--all and --partition exclude each other");
    if ((o.validate || o.stream) && o.pce == CZK__PCE_OFF)
        return czk_cli_usage_error(CMD, usage, "--validate and --stream need --pce on, auto or both");
    if (o.r1cs && o.all) return czk_cli_usage_error(CMD, usage, "--r1cs-digest works on one partition: --partition K, not --all");
    if (o.r1cs && o.pce != CZK__PCE_OFF)
        return czk_cli_usage_error(CMD, usage, "--r1cs-digest/--r1cs-dump/--r1cs-compare need --pce off");
    czk_cli_apply_common(&com);
    czk_init();
    /* a malformed or missing dump fails now, not after the timed runs */
    if (o.r1cs_compare) {
        czk_status vs = czk__bench_r1cs_check_dump(o.r1cs_compare, o.lc);
        if (vs != CZK_OK) return czk_cli_fail(CMD, vs, "--r1cs-compare");
    }

    czk_fc_c1 c1;
    czk_fc_shape shape;
    memset(&c1, 0, sizeof c1);
    double tg0 = czk_now();
    if (o.c1) {
        czk_status s = czk_fc_c1_read(&c1, o.c1);
        if (s != CZK_OK) return czk_cli_fail(CMD, s, "reading the C1 file");
        shape = c1.shape;
    } else {
        if (czk_shape_resolve(&shape, &o.shape, CMD, usage) != 0) return CZK_EXIT_USAGE;
        czk_status s = czk_fc_gen_c1(&c1, &shape, o.seed, NULL, NULL);
        if (s != CZK_OK) return czk_cli_fail(CMD, s, "generating a synthetic sector");
    }
    double gen_s = czk_now() - tg0;
    if ((uint64_t)o.partition >= shape.partitions) {
        czk_fc_c1_free(&c1);
        return czk_cli_usage_error(CMD, usage, "--partition %lld: the sector has %u partitions", o.partition,
                                   shape.partitions);
    }
    czk_cs_sizes z;
    czk_status s = czk_porep_sizes(&z, &shape);
    if (s != CZK_OK) return czk_cli_fail(CMD, s, "circuit sizes");

    czk_porep_counts cnt;
    int have_cnt = 0;
    double cnt_s = 0;
    if (o.pce == CZK__PCE_AUTO) {
        o.pce = czk_kind_pce_cached(&czk_kind_porep, &shape) ? CZK__PCE_ON : CZK__PCE_OFF;
        if (!com.json)
            printf("# --pce auto: the shape's PCE is %s: pce %s\n", o.pce == CZK__PCE_ON ? "cached" : "not cached",
                   o.pce == CZK__PCE_ON ? "on" : "off");
        if (o.pce == CZK__PCE_OFF && (o.validate || o.stream)) {
            czk_fc_c1_free(&c1);
            return czk_cli_usage_error(CMD, usage, "--pce auto chose off (no cached PCE): --validate/--stream need it on");
        }
    }
    /* the counting pass belongs to the constraint-system path (the PCE has its own counts) */
    if (!o.no_nnz && o.pce != CZK__PCE_ON) {
        double t0 = czk_now();
        s = czk_porep_count(&cnt, &shape, o.lc);
        cnt_s = czk_now() - t0;
        if (s != CZK_OK) return czk_cli_fail(CMD, s, "counting pass");
        if (cnt.n_inputs != z.n_inputs || cnt.n_aux != z.n_aux || cnt.n_constraints != z.n_constraints) {
            fprintf(stderr, "czk " CMD ": counting pass %llu/%llu/%llu != czk_porep_sizes %llu/%llu/%llu\n",
                    (unsigned long long)cnt.n_inputs, (unsigned long long)cnt.n_aux,
                    (unsigned long long)cnt.n_constraints, (unsigned long long)z.n_inputs,
                    (unsigned long long)z.n_aux, (unsigned long long)z.n_constraints);
            return CZK_EXIT_FAIL;
        }
        have_cnt = 1;
    }

    int rc2;
    if (o.pce == CZK__PCE_OFF) rc2 = run_off(&o, &com, &shape, &c1, &z, &cnt, have_cnt, gen_s, cnt_s, NULL);
    else if (o.pce == CZK__PCE_ON) rc2 = run_pce(&o, &com, &shape, &c1, &z, NULL);
    else {
        run_summary off = {0, 0, 0, 0, 0, 0, 0}, on = {0, 0, 0, 0, 0, 0, 0};
        if (com.json) printf("{\"off\":");
        rc2 = run_off(&o, &com, &shape, &c1, &z, &cnt, have_cnt, gen_s, cnt_s, &off);
        if (com.json) printf(",\"on\":");
        else printf("\n");
        if (rc2 == CZK_EXIT_OK) rc2 = run_pce(&o, &com, &shape, &c1, &z, &on);
        else if (com.json) printf("null");
        print_compare(&com, &off, &on);
    }
    czk_fc_c1_free(&c1);
    return rc2;
}

__attribute__((constructor)) static void register_synth_only(void)
{
    czk__bench_register("synth-only", "PoRep or PoSt partition synthesis (cuzk synth-only): time, counts, non-zeros",
                        bench_synth_main);
}
