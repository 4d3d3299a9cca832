#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "porep_run.h"
#include "czk/engine.h"
#include "common/fileio.h"

static const char usage[] =
    "usage: czk prove --c1 C1.json (--params FILE.params | --param-cache DIR) -o PROOF.bin\n"
    "                 [--partition K] [--no-verify] [--lc vec|inline1|inline2|inline4]\n"
    "                 [--params-check pinned|full|curve] [--pce on|off|auto] [--threads N] [--quiet] [--json]\n\n"
    "Prove a sector's PoRep from its C1 output (lotus-bench envelope or plain\n"
    "JSON): every partition (or only --partition K), one 192-byte Groth16 proof\n"
    "each, concatenated in partition order into PROOF.bin (written atomically).\n"
    "Each proof is verified with the verifying key inside the parameters before\n"
    "the file is written, unless --no-verify. Several partitions go through the\n"
    "pipelined engine (synthesis of one overlaps proving of the previous; the\n"
    "proofs are batch-verified), unless PCE is used.\n"
    "--param-cache DIR: use Filecoin's parameter file for the C1's registered proof,\n"
    "DIR/v28-stacked-proof-of-replication-...params, as filecoin-proofs names it (default\n"
    "DIR when neither flag is given: $FIL_PROOFS_PARAMETER_CACHE, else\n"
    "/var/tmp/filecoin-proof-parameters).\n"
    "--pce: synthesize through the\n"
    "pre-compiled matrices (witness + sparse mat-vec); auto (default) uses them\n"
    "when the shape's PCE file is cached (czk pce build), on builds it if needed.\n"
    "--params-check: pinned (default) skips the subgroup checks when FILE.params.czkcheck,\n"
    "recorded by an earlier full validation, matches the file's size, mtime and\n"
    "SHA-256 block checksum, and runs the full validation (and records it) otherwise;\n"
    "full always checks every point (on curve, in subgroup, not identity);\n"
    "curve skips the subgroup checks (unsafe for files from elsewhere).\n";

enum { OPT_C1 = CZK_OPT_FIRST_FREE, OPT_PARAMS, OPT_PARTITION, OPT_NO_VERIFY, OPT_LC, OPT_CHECK, OPT_PCE, OPT_PARAM_CACHE };

typedef struct {
    const char *c1, *params, *param_cache, *out;
    long long partition;
    int no_verify;
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
    case OPT_LC:
        if (czk_lc_kind_parse(&a->lc, arg) != CZK_OK)
            return czk_cli_usage_error("prove", usage, "--lc wants vec, inline1, inline2 or inline4, got '%s'", arg);
        return 0;
    case OPT_PCE:
        if (czk_pce_mode_parse(&a->pce, arg))
            return czk_cli_usage_error("prove", usage, "--pce wants on, off or auto, got '%s'", arg);
        return 0;
    case OPT_CHECK:
        if (czk_groth16_check_parse(&a->check, arg) != CZK_OK)
            return czk_cli_usage_error("prove", usage, "--params-check wants pinned, full or curve, got '%s'", arg);
        return 0;
    }
    return czk_cli_usage_error("prove", usage, "unexpected option");
}

static void engine_progress(void *ctx, const czk_engine_progress *p)
{
    char st[64];
    snprintf(st, sizeof st, "proving: %llu/%llu partitions synthesized, %llu proven",
             (unsigned long long)p->tasks_synthesized, (unsigned long long)p->tasks_total,
             (unsigned long long)p->tasks_proven);
    czk_progress_fraction(ctx, st, p->tasks_total ? (double)p->tasks_proven / (double)p->tasks_total : 0);
}

/* Partitions 0..count-1 through the pipelined engine (one job), verified
 * by the engine unless --no-verify; times[i] from its timeline. */
static czk_status prove_with_engine(czk_groth16_proof *proofs, czk_porep_times *times, const czk_fc_c1 *c1,
                                    uint32_t count, const czk_groth16_params *p, const args *a, czk_progress *pg)
{
    czk_engine_opts eo;
    memset(&eo, 0, sizeof eo);
    eo.lc = a->lc;
    eo.no_verify = a->no_verify;
    int nt = czk_threads();
    eo.synth_workers = nt / 2 > 1 ? nt / 2 : 1;
    if ((uint32_t)eo.synth_workers > count) eo.synth_workers = (int)count;
    if (pg->enabled) {
        eo.progress = engine_progress;
        eo.progress_ctx = pg;
    }
    czk_cs_sizes sz;
    if (czk_porep_sizes(&sz, &c1->shape) != CZK_OK) memset(&sz, 0, sizeof sz);
    czk_engine *e;
    CZK_TRY(czk_engine_create(&e, &eo));
    czk_engine_job job;
    memset(&job, 0, sizeof job);
    job.circuit = &czk_engine_porep;
    job.data = c1;
    job.params = p;
    job.n_partitions = count;
    job.name = "porep";
    uint64_t id;
    czk_status st = czk_engine_submit(e, &id, &job);
    if (st == CZK_OK) st = czk_engine_wait(e, id, proofs, count);
    char msg[700] = "";
    if (st != CZK_OK) snprintf(msg, sizeof msg, "%s", czk_last_error());
    czk_engine_event *ev = NULL;
    size_t nev = 0;
    if (st == CZK_OK && czk_engine_events(e, &ev, &nev) == CZK_OK) {
        for (size_t i = 0; i < nev && i < count; i++) {
            memset(&times[i], 0, sizeof times[i]);
            times[i].synth_s = ev[i].synth_end - ev[i].synth_start;
            times[i].g.total_s = ev[i].prove_end - ev[i].prove_start;
            times[i].constraints = sz.n_constraints;
            times[i].aux = sz.n_aux;
            times[i].inputs = sz.n_inputs;
        }
    }
    free(ev);
    czk_engine_destroy(e);
    if (st != CZK_OK) return czk_error(st, "%s", msg);
    return CZK_OK;
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
    if (!a.c1 || !a.out) return czk_cli_usage_error("prove", usage, "--c1 and -o are required");
    if (a.params && a.param_cache)
        return czk_cli_usage_error("prove", usage, "--params and --param-cache exclude each other");

    czk_progress pg;
    czk_progress_init(&pg, czk_cli_progress_enabled(&c));
    czk_fc_c1 c1;
    memset(&c1, 0, sizeof c1);
    czk_status s = czk_fc_c1_read(&c1, a.c1);
    if (s != CZK_OK) return czk_cli_fail("prove", s, "reading the C1 file failed");
    uint32_t parts = c1.shape.partitions;
    if (a.partition >= (long long)parts) {
        czk_fc_c1_free(&c1);
        return czk_cli_usage_error("prove", usage, "--partition %lld: the sector has %u partitions", a.partition, parts);
    }
    uint32_t first = a.partition >= 0 ? (uint32_t)a.partition : 0;
    uint32_t count = a.partition >= 0 ? 1 : parts;
    char params_path[1024];
    if (!a.params) {
        s = czk_fc_param_path(params_path, sizeof params_path, a.param_cache ? a.param_cache : czk_fc_param_cache_dir(),
                              c1.shape.proof, ".params");
        if (s != CZK_OK) {
            czk_fc_c1_free(&c1);
            return czk_cli_fail("prove", s, "no parameter file for this sector");
        }
        a.params = params_path;
    }

    czk_progress_fraction(&pg, "reading parameters", 0);
    czk_groth16_params p;
    czk_groth16_read_opts ro = {a.check, 0, 0, NULL};
    czk_groth16_read_info rinfo;
    s = czk_groth16_params_read_ex(&p, a.params, &ro, &rinfo);
    czk_progress_done(&pg);
    if (s == CZK_OK && !c.quiet && !c.json) {
        char line[1024];
        czk_groth16_read_info_describe(line, sizeof line, &rinfo);
        fprintf(stderr, "czk: %s\n", line);
    }
    if (s != CZK_OK) {
        czk_fc_c1_free(&c1);
        return czk_cli_fail("prove", s, "reading parameters failed");
    }
    czk_groth16_proof *proofs = calloc(count, sizeof *proofs);
    uint8_t *bytes = malloc((size_t)count * CZK_GROTH16_PROOF_BYTES);
    czk_porep_times *times = calloc(count, sizeof *times);
    int exit_code = CZK_EXIT_OK;
    if (!proofs || !bytes || !times) {
        s = czk_error(CZK_ERR_NOMEM, "proof buffers");
        exit_code = czk_cli_fail("prove", s, "out of memory");
        goto out;
    }
    czk_porep_synth synth;
    s = czk_porep_synth_open(&synth, &c1.shape, a.pce, &pg);
    if (s != CZK_OK) {
        exit_code = czk_cli_fail("prove", s, "pre-compiled constraint evaluation");
        goto out;
    }
    double t0 = czk_bench_now();
    int via_engine = 0;
    if (count > 1 && !synth.work) {
        /* several partitions: the pipelined engine (synthesis of partition
         * N+1 overlaps proving of N; proofs verified in one batch) */
        czk_porep_synth_close(&synth);
        via_engine = 1;
        s = prove_with_engine(proofs, times, &c1, count, &p, &a, &pg);
        czk_progress_done(&pg);
        if (s != CZK_OK) {
            exit_code = czk_cli_fail("prove", s, "proving failed");
            goto out;
        }
        for (uint32_t i = 0; i < count; i++)
            czk_groth16_proof_encode(bytes + (size_t)i * CZK_GROTH16_PROOF_BYTES, &proofs[i]);
        goto proved;
    }
    for (uint32_t i = 0; i < count; i++) {
        if (pg.enabled) {
            char st[64];
            snprintf(st, sizeof st, "proving partition %u/%u", first + i + 1, parts);
            czk_progress_fraction(&pg, st, (double)i / count);
        }
        s = czk_porep_prove_partition(&proofs[i], &p, &c1, first + i, a.lc, &synth, &times[i]);
        if (s != CZK_OK) {
            czk_porep_synth_close(&synth);
            czk_progress_done(&pg);
            exit_code = czk_cli_fail("prove", s, "proving failed");
            goto out;
        }
        czk_groth16_proof_encode(bytes + (size_t)i * CZK_GROTH16_PROOF_BYTES, &proofs[i]);
    }
    czk_porep_synth_close(&synth);
proved:
    czk_progress_done(&pg);
    double t_prove = czk_bench_now() - t0;
    int verified = 0;
    if (!a.no_verify) {
        if (first == 0) {
            s = czk_porep_verify(&p.vk, &c1, proofs, count);
        } else {
            /* a single later partition: verify it alone */
            size_t n = czk_porep_num_inputs(&c1.shape) - 1;
            czk_fr *in = malloc(n * sizeof *in);
            czk_groth16_pvk pvk;
            s = in ? czk_porep_public_inputs(in, &c1, first) : czk_error(CZK_ERR_NOMEM, "inputs");
            if (s == CZK_OK) s = czk_groth16_pvk_prepare(&pvk, &p.vk);
            if (s == CZK_OK) s = czk_groth16_verify(&pvk, &proofs[0], in, n);
            free(in);
        }
        if (s != CZK_OK) {
            exit_code = czk_cli_fail("prove", s, "the new proof does not verify (not written)");
            goto out;
        }
        verified = 1;
    }
    const void *chunks[1] = {bytes};
    size_t len = (size_t)count * CZK_GROTH16_PROOF_BYTES;
    s = czk__write_atomic(a.out, chunks, &len, 1);
    if (s != CZK_OK) {
        exit_code = czk_cli_fail("prove", s, "writing the proof failed");
        goto out;
    }
    if (c.json) {
        printf("{\"proof\":\"%s\",\"sector\":\"%s\",\"engine\":%s,\"partitions\":[", a.out,
               czk_fc_proof_name(c1.shape.proof), via_engine ? "true" : "false");
        for (uint32_t i = 0; i < count; i++) {
            printf("%s{\"partition\":%u,\"constraints\":%llu,\"synth_s\":%.4f,", i ? "," : "", first + i,
                   (unsigned long long)times[i].constraints, times[i].synth_s);
            if (!via_engine) /* the engine's prover runs whole passes: no per-stage split */
                printf("\"h_s\":%.4f,\"msm_s\":%.4f,", times[i].g.h_s,
                       times[i].g.msm_h_s + times[i].g.msm_l_s + times[i].g.msm_a_s + times[i].g.msm_b_g1_s);
            printf("\"prove_s\":%.4f}", times[i].g.total_s);
        }
        printf("],\"verified\":%s,\"seconds\":%.3f}\n", verified ? "true" : "false", t_prove);
    } else if (!c.quiet) {
        printf("proved %u partition%s of %s in %.2f s%s%s; wrote %s (%zu bytes)\n", count, count > 1 ? "s" : "",
               czk_fc_proof_name(c1.shape.proof), t_prove, via_engine ? " (pipelined engine)" : "",
               verified ? ", verified" : "", a.out, len);
    }
out:
    free(proofs);
    free(bytes);
    free(times);
    czk_groth16_params_clear(&p);
    czk_fc_c1_free(&c1);
    return exit_code;
}

CZK_CLI_COMMAND(prove, "prove a sector's PoRep from its C1 output", run)
