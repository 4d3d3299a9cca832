#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bench.h"
#include "cli.h"
#include "progress.h"
#include "shape_opts.h"
#include "czk/kind.h"
#include "czk/post.h"
#include "czk/engine.h"
#include "common/fileio.h"

static const char usage[] =
    "usage: czk prove --c1 C1.json (--params FILE.params | --param-cache DIR) -o PROOF.bin\n"
    "                 [--partition K] [--no-verify] [--lc vec|inline1|inline2|inline4]\n"
    "                 [--params-check pinned|full|curve] [--pce on|off|auto] [--parallel]\n"
    "                 [--stream-params] [--threads N] [--quiet] [--json]\n"
    "       czk prove --post window|winning --vanilla DIR (--params FILE.params | --param-cache DIR)\n"
    "                 -o PROOF.bin [--no-verify] [--lc ...] [--params-check ...] [--pce on|off|auto] [--parallel]\n"
    "                 [--threads N] [--quiet] [--json]\n"
    "       czk prove --snap --vanilla DIR (--params FILE.params | --param-cache DIR) -o PROOF.bin\n"
    "                 [--no-verify] [--lc ...] [--params-check ...] [--threads N] [--quiet] [--json]\n\n"
    "Prove a sector's PoRep from its C1 output (lotus-bench envelope or plain\n"
    "JSON): every partition (or only --partition K), one 192-byte Groth16 proof\n"
    "each, concatenated in partition order into PROOF.bin (written atomically).\n"
    "The partitions go through the pipelined engine (synthesis of one overlaps\n"
    "proving of the previous). The proofs are verified once, in one batch, with\n"
    "the verifying key inside the parameters before the file is written, unless\n"
    "--no-verify.\n"
    "--param-cache DIR: use Filecoin's parameter file for the C1's registered proof,\n"
    "DIR/v28-stacked-proof-of-replication-...params, as filecoin-proofs names it (default\n"
    "DIR when neither flag is given: $FIL_PROOFS_PARAMETER_CACHE, else\n"
    "/var/tmp/filecoin-proof-parameters).\n"
    "--pce: synthesize through the\n"
    "pre-compiled matrices (witness + sparse mat-vec); auto (default) uses them\n"
    "when the shape's PCE file is cached (czk pce build), on builds it if needed.\n"
    "--parallel: without PCE, synthesize one partition at a time with its\n"
    "challenges (PoSt: its sectors) on every thread (the parallel prover) instead\n"
    "of one partition per synthesis worker.\n"
    "--params-check: pinned (default) skips the subgroup checks when FILE.params.czkcheck,\n"
    "recorded by an earlier full validation, matches the file's size, mtime and\n"
    "SHA-256 block checksum, and runs the full validation (and records it) otherwise;\n"
    "full always checks every point (on curve, in subgroup, not identity);\n"
    "curve skips the subgroup checks (unsafe for files from elsewhere).\n"
    "--stream-params (every kind): leave the parameters on disk and read them section\n"
    "by section in chunks inside each partition's prover (never resident: for a file\n"
    "larger than memory, e.g. a 32GiB partition's 47 GB); the partitions run one\n"
    "after another, with PCE each of a, b, c is evaluated only when H needs it, and\n"
    "the checksum is compared with the sidecar at the end (no proof on a mismatch).\n"
    "Chosen by itself when the file is larger than 3/4 of the memory available.\n"
    "--post window|winning --vanilla DIR: prove a WindowPoSt partition or a WinningPoSt\n"
    "proof from DIR/post-KIND.json and DIR/vanilla-KIND.bin (as `czk-oracle vanilla-post\n"
    "-o DIR` writes them): the vanilla proof is read strictly and checked against its\n"
    "challenges before any synthesis; one 192-byte proof, verified once, is written.\n"
    "--param-cache DIR then names DIR/v28-proof-of-spacetime-fallback-...params.\n"
    "--pce and --parallel work as for PoRep (the PCE of a FallbackPoSt shape is its own\n"
    "cache file: czk pce build --circuit window-post|winning-post).\n"
    "--snap --vanilla DIR: prove a SnapDeals update from DIR/snap.json and\n"
    "DIR/snap-partition-K.bin (as `czk-oracle vanilla-snap` or `czk gen-snap` write them):\n"
    "the partition proofs are read strictly and checked natively before any synthesis;\n"
    "every partition goes through the pipelined engine, and their 192-byte proofs,\n"
    "concatenated in partition order, are verified once and written.\n"
    "--param-cache DIR then names DIR/v28-empty-sector-update-merkletree-...params;\n"
    "--pce and --parallel as for PoRep (one PCE serves every partition of a size:\n"
    "czk pce build --circuit snap).\n";

enum { OPT_C1 = CZK_OPT_FIRST_FREE, OPT_PARAMS, OPT_PARTITION, OPT_NO_VERIFY, OPT_LC, OPT_CHECK, OPT_PCE, OPT_PARAM_CACHE, OPT_PARALLEL,
       OPT_POST, OPT_VANILLA, OPT_SNAP, OPT_STREAM };

typedef struct {
    const char *c1, *params, *param_cache, *out, *vanilla;
    czk_kind_input_args pick; /* the kind a picking option named (--post, --snap) */
    int pce_given;
    long long partition;
    int no_verify, parallel;
    int stream; /* --stream-params */
    czk_lc_kind lc;
    czk_groth16_check check;
    czk_pce_mode pce;
} args;

static int on_opt(void *ctx, int opt, const char *arg)
{
    args *a = ctx;
    switch (opt) {
    case OPT_C1: a->c1 = arg; return 0;
    case OPT_PARAMS: a->params = arg; return 0;
    case OPT_PARAM_CACHE: a->param_cache = arg; return 0;
    case 'o': a->out = arg; return 0;
    case OPT_PARTITION:
        if (czk_cli_parse_int(arg, 0, 1000, &a->partition))
            return czk_cli_usage_error("prove", usage, "--partition wants a partition number, got '%s'", arg);
        return 0;
    case OPT_NO_VERIFY: a->no_verify = 1; return 0;
    case OPT_PARALLEL: a->parallel = 1; return 0;
    case OPT_STREAM: a->stream = 1; return 0;
    case OPT_VANILLA: a->vanilla = arg; return 0;
    case OPT_SNAP: return czk_kind_pick(&a->pick, "--snap", NULL, "prove", usage);
    case OPT_POST: return czk_kind_pick(&a->pick, "--post", arg, "prove", usage);
    case OPT_LC:
        if (czk_lc_kind_parse(&a->lc, arg) != CZK_OK)
            return czk_cli_usage_error("prove", usage, "--lc wants vec, inline1, inline2 or inline4, got '%s'", arg);
        return 0;
    case OPT_PCE:
        if (czk_pce_mode_parse(&a->pce, arg))
            return czk_cli_usage_error("prove", usage, "--pce wants on, off or auto, got '%s'", arg);
        a->pce_given = 1;
        return 0;
    case OPT_CHECK:
        if (czk_groth16_check_parse(&a->check, arg) != CZK_OK)
            return czk_cli_usage_error("prove", usage, "--params-check wants pinned, full or curve, got '%s'", arg);
        return 0;
    }
    return czk_cli_usage_error("prove", usage, "unexpected option");
}

/* Read the parameter file; the reader's summary on stderr unless quiet, and
 * in *rinfo (the validation that ran: --json's "params_check"). */
static czk_status read_params(czk_groth16_params *p, const char *path, czk_groth16_check check,
                              const czk_cli_common *c, czk_progress *pg, czk_groth16_read_info *rinfo_out)
{
    czk_progress_fraction(pg, "reading parameters", 0);
    czk_groth16_read_opts ro = {check, 0, 0, NULL};
    czk_groth16_read_info rinfo;
    czk_status s = czk_groth16_params_read_ex(p, path, &ro, &rinfo);
    *rinfo_out = rinfo;
    czk_progress_done(pg);
    if (s == CZK_OK && !c->quiet && !c->json) {
        char line[1024];
        czk_groth16_read_info_describe(line, sizeof line, &rinfo);
        fprintf(stderr, "czk: %s\n", line);
    }
    return s;
}

/* A job's parameters and what became of them: read into p, or left on disk
 * and streamed section by section for each partition (--stream-params, or
 * by itself when the file is larger than 3/4 of the memory available: it
 * would not fit beside the witness); rinfo: the validation that ran (for a
 * streamed file, once the prover has read it all). */
typedef struct job_params {
    char path[1024]; /* the kind's v28 file under --param-cache (or the default cache) */
    czk_groth16_params p;
    int streamed;
    czk_groth16_read_info rinfo;
    czk_groth16_stream_stats stats;
} job_params;

/* Zero job, set its kind and data, and its parameters: --params, else the
 * kind's file by the name filecoin-proofs gives it under --param-cache (or
 * the default cache). CZK_EXIT_OK, or the failure's exit code once its
 * message is out. */
static int params_for_job(czk_kind_job *job, job_params *jp, const czk_proof_kind *kind, const void *data,
                          const args *a, const czk_cli_common *c, czk_progress *pg)
{
    memset(job, 0, sizeof *job);
    const char *path = a->params;
    czk_status s;
    if (!path) {
        s = kind->param_path(jp->path, sizeof jp->path, a->param_cache ? a->param_cache : czk_fc_param_cache_dir(),
                             data, ".params");
        if (s != CZK_OK) return czk_cli_fail("prove", s, "no parameter file for this proof");
        path = jp->path;
    }
    int stream = a->stream;
    struct stat st;
    double avail = czk_bench_mem_available();
    if (!stream && stat(path, &st) == 0 && avail > 0 && (double)st.st_size > 0.75 * avail) {
        stream = 1;
        if (!c->quiet && !c->json)
            fprintf(stderr, "czk: %s is %.1f GB, more than 3/4 of the %.1f GB of memory available: "
                    "streaming it by section (as --stream-params)\n", path, (double)st.st_size / 1e9, avail / 1e9);
    }
    jp->streamed = stream;
    job->kind = kind;
    job->data = data;
    if (stream) {
        job->params_stream = path;
        job->stream_check = a->check;
        job->stream_info = &jp->rinfo;
        job->stream_stats = &jp->stats;
        return CZK_EXIT_OK;
    }
    s = read_params(&jp->p, path, a->check, c, pg, &jp->rinfo);
    if (s != CZK_OK) return czk_cli_fail("prove", s, "reading parameters failed");
    job->params = &jp->p;
    return CZK_EXIT_OK;
}

/* --json's members on the parameters: how they were used, the validation,
 * the seconds spent reading them (streamed: reading and decoding inside the
 * prover). */
static void json_params(const job_params *jp)
{
    printf("\"params\":\"%s\",\"params_check\":\"%s\",\"params_read_s\":%.3f", jp->streamed ? "streamed" : "read",
           czk_groth16_check_name(jp->rinfo.ran), jp->streamed ? jp->stats.read_s : jp->rinfo.total_s);
}

/* The proofs' bytes, written atomically. */
static czk_status write_proofs(const char *path, const czk_groth16_proof *proofs, uint32_t count, uint8_t *bytes)
{
    for (uint32_t i = 0; i < count; i++)
        czk_groth16_proof_encode(bytes + (size_t)i * CZK_GROTH16_PROOF_BYTES, &proofs[i]);
    const void *chunks[1] = {bytes};
    size_t len = (size_t)count * CZK_GROTH16_PROOF_BYTES;
    return czk__write_atomic(path, chunks, &len, 1);
}

/* Run a prepared job through the engine with the settings every kind takes
 * from the command line (LC storage, --no-verify, progress); CZK_EXIT_OK,
 * or the failure's exit code once its message is out. */
static int run_job(czk_groth16_proof *proofs, czk_kind_job *job, const args *a, czk_progress *pg,
                   czk_kind_report *rep, czk_kind_partition_times *times)
{
    job->source.lc = a->lc;
    job->source.pce = a->pce;
    job->source.parallel = a->parallel;
    job->source.progress = czk_progress_cb;
    job->source.progress_ctx = pg;
    job->engine.lc = a->lc;
    job->engine.no_verify = a->no_verify;
    if (pg->enabled) {
        job->progress = czk_progress_cb;
        job->progress_ctx = pg;
    }
    memset(rep, 0, sizeof *rep);
    rep->parts = times;
    czk_status s = czk_kind_prove(proofs, job, rep);
    czk_progress_done(pg);
    if (s != CZK_OK)
        return czk_cli_fail("prove", s,
                            s == CZK_ERR_VERIFY ? "the new proof does not verify (not written)" : "proving failed");
    return CZK_EXIT_OK;
}

/* --json's and the text line's report of a proven job. */
static void report(const args *a, const czk_cli_common *c, const czk_proof_kind *k, const char *name,
                   const czk_kind_report *rep, const czk_kind_partition_times *times, uint32_t count,
                   uint64_t constraints, const job_params *jp)
{
    if (c->json) {
        printf("{\"proof\":\"%s\",\"kind\":\"%s\",\"registered_proof\":\"%s\",\"witness\":\"%s\","
               "\"source\":\"%s\",\"partitions\":[",
               a->out, k->name, name, rep->source, rep->source);
        for (uint32_t i = 0; i < count; i++)
            printf("%s{\"partition\":%u,\"constraints\":%llu,\"synth_s\":%.4f,\"prove_s\":%.4f,\"batch\":%d}",
                   i ? "," : "", times[i].partition, (unsigned long long)constraints, times[i].synth_s,
                   times[i].prove_s, times[i].batch);
        printf("],\"verified\":%s,\"seconds\":%.3f,\"peak_reserved\":%llu,", rep->verified ? "true" : "false",
               rep->wall_s, (unsigned long long)rep->peak_reserved);
        json_params(jp);
        printf("}\n");
    } else if (!c->quiet) {
        printf("proved %u %s partition%s of %s in %.2f s (witness: %s)%s; wrote %s (%zu bytes)\n", count, k->name,
               count > 1 ? "s" : "", name, rep->wall_s, rep->source, rep->verified ? ", verified" : "", a->out,
               (size_t)count * CZK_GROTH16_PROOF_BYTES);
    }
}

/* Prove kind k's job read from input: every partition, or --partition K. */
static int prove_kind(const args *a, const czk_cli_common *c, const czk_proof_kind *k, const char *input)
{
    czk_progress pg;
    czk_progress_init(&pg, czk_cli_progress_enabled(c));
    void *data = NULL, *pub = NULL;
    /* strict read and native check before anything else is looked at */
    czk_status s = k->read(&data, input);
    if (s != CZK_OK) return czk_cli_fail("prove", s, "the job's input is refused (nothing written)");
    /* the registered proof's name: from the public data, which is the job
     * data itself where one file holds both (PoRep's C1) */
    if (k->read_public != k->read && (s = k->read_public(&pub, input)) != CZK_OK) {
        k->free_data(data);
        return czk_cli_fail("prove", s, "the job's public data is refused (nothing written)");
    }
    const char *name = k->public_name(pub ? pub : data);
    const uint32_t parts = k->partitions(data);
    int exit_code = CZK_EXIT_OK;
    job_params jp;
    memset(&jp, 0, sizeof jp);
    const uint32_t count = a->partition >= 0 ? 1 : parts;
    czk_groth16_proof *proofs = calloc(count, sizeof *proofs);
    uint8_t *bytes = malloc((size_t)count * CZK_GROTH16_PROOF_BYTES);
    czk_kind_partition_times *times = calloc(count, sizeof *times);
    uint32_t *partitions = malloc(count * sizeof *partitions);
    if (a->partition >= (long long)parts) {
        exit_code = czk_cli_usage_error("prove", usage, "--partition %lld: the sector has %u partitions", a->partition,
                                        parts);
        goto out;
    }
    if (!proofs || !bytes || !times || !partitions) {
        exit_code = czk_cli_fail("prove", czk_error(CZK_ERR_NOMEM, "%u proofs", count), "out of memory");
        goto out;
    }
    for (uint32_t i = 0; i < count; i++) partitions[i] = (a->partition >= 0 ? (uint32_t)a->partition : 0) + i;
    czk_kind_job job;
    exit_code = params_for_job(&job, &jp, k, data, a, c, &pg);
    if (exit_code != CZK_EXIT_OK) goto out;
    /* one job through the pipelined engine (n = 1 included): synthesis of
     * partition N+1 overlaps proving of N; the engine verifies the proofs
     * once (batch verification) unless --no-verify */
    job.partitions = partitions;
    job.n = count;
    czk_kind_report rep;
    exit_code = run_job(proofs, &job, a, &pg, &rep, times);
    if (exit_code != CZK_EXIT_OK) goto out;
    s = write_proofs(a->out, proofs, count, bytes);
    if (s != CZK_OK) {
        exit_code = czk_cli_fail("prove", s, "writing the proof failed");
        goto out;
    }
    czk_cs_sizes sz;
    if (czk_kind_shape_sizes(&sz, k, k->shape_of(data)) != CZK_OK) memset(&sz, 0, sizeof sz);
    report(a, c, k, name, &rep, times, count, sz.n_constraints, &jp);
out:
    free(proofs);
    free(bytes);
    free(times);
    free(partitions);
    czk_groth16_params_clear(&jp.p);
    if (pub) k->free_public(pub);
    k->free_data(data);
    return exit_code;
}

static int run(int argc, char **argv)
{
    static const struct option opts[] = {{"c1", required_argument, 0, OPT_C1},
                                         {"params", required_argument, 0, OPT_PARAMS},
                                         {"param-cache", required_argument, 0, OPT_PARAM_CACHE},
                                         {"output", required_argument, 0, 'o'},
                                         {"partition", required_argument, 0, OPT_PARTITION},
                                         {"no-verify", no_argument, 0, OPT_NO_VERIFY},
                                         {"lc", required_argument, 0, OPT_LC},
                                         {"params-check", required_argument, 0, OPT_CHECK},
                                         {"pce", required_argument, 0, OPT_PCE},
                                         {"parallel", no_argument, 0, OPT_PARALLEL},
                                         {"post", required_argument, 0, OPT_POST},
                                         {"vanilla", required_argument, 0, OPT_VANILLA},
                                         {"snap", no_argument, 0, OPT_SNAP},
                                         {"stream-params", no_argument, 0, OPT_STREAM},
                                         {0, 0, 0, 0}};
    args a;
    memset(&a, 0, sizeof a);
    a.partition = -1;
    a.lc = CZK_LC_DEFAULT;
    a.pce = CZK_PCE_MODE_AUTO;
    a.check = CZK_GROTH16_CHECK_DEFAULT;
    czk_cli_common c;
    int rc = czk_cli_parse(argc, argv, "prove", usage, opts, &a, on_opt, &c, NULL);
    if (rc != CZK_CLI_CONTINUE) return rc;
    if (a.params && a.param_cache)
        return czk_cli_usage_error("prove", usage, "--params and --param-cache exclude each other");
    czk_kind_input_args in = a.pick;
    in.c1 = a.c1;
    in.vanilla = a.vanilla;
    in.partition = a.partition;
    in.out_flag = "-o";
    in.have_out = a.out != NULL;
    const czk_proof_kind *k = NULL;
    const char *input = NULL;
    rc = czk_kind_input(&k, &input, &in, "prove", usage);
    if (rc) return rc;
    return prove_kind(&a, &c, k, input);
}

CZK_CLI_COMMAND(prove,
                "prove a sector's PoRep from its C1 output, a PoSt or a SnapDeals update from its vanilla proofs",
                run)
