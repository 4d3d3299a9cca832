#include <string.h>

#include "bench.h"
#include "cli.h"
#include "progress.h"
#include "czk/porep_kind.h"

static const char usage[] =
    "usage: czk demo [--threads N] [--json] [--quiet]\n\n"
    "The embedded default job: generate a synthetic 2KiB PoRep sector, set up\n"
    "Groth16 parameters for its circuit (cached on disk after the first run:\n"
    "$CZK_CACHE_DIR, else $XDG_CACHE_HOME/czk, else ~/.cache/czk), synthesize\n"
    "and prove its partition, verify the proof, and print the per-stage times.\n";

static int run(int argc, char **argv)
{
    czk_cli_common c;
    int rc = czk_cli_parse(argc, argv, "demo", usage, NULL, NULL, NULL, &c, NULL);
    if (rc != CZK_CLI_CONTINUE) return rc;
    czk_progress pg;
    czk_progress_init(&pg, czk_cli_progress_enabled(&c));
    czk_fc_shape shape;
    czk_status s = czk_fc_shape_of_size(&shape, 2048);
    if (s != CZK_OK) return czk_cli_fail("demo", s, "2KiB shape");
    czk_fc_c1 c1;
    memset(&c1, 0, sizeof c1);
    double t0 = czk_now();
    uint64_t seed;
    if (czk_os_random(&seed, sizeof seed) != CZK_OK) seed = 1;
    s = czk_fc_gen_c1(&c1, &shape, seed, NULL, NULL);
    double t_gen = czk_now() - t0;
    if (s != CZK_OK) return czk_cli_fail("demo", s, "generating the synthetic sector failed");
    czk_groth16_params p;
    char ppath[512];
    int generated = 0;
    t0 = czk_now();
    s = czk_kind_cached_params(&p, &czk_kind_porep, &shape, czk_progress_cb, &pg, ppath, &generated);
    double t_setup = czk_now() - t0;
    if (s != CZK_OK) {
        czk_fc_c1_free(&c1);
        return czk_cli_fail("demo", s, "parameters");
    }
    czk_groth16_proof pr;
    czk_porep_times t;
    t0 = czk_now();
    s = czk_porep_prove_partition(&pr, &p, &c1, 0, NULL, &t);
    double t_prove = czk_now() - t0;
    double t_verify = 0;
    if (s == CZK_OK) {
        t0 = czk_now();
        s = czk_porep_verify(&p.vk, &c1, &pr, 1);
        t_verify = czk_now() - t0;
    }
    int code = CZK_EXIT_OK;
    if (s != CZK_OK) {
        code = czk_cli_fail("demo", s, "prove/verify failed");
    } else {
        uint8_t enc[CZK_GROTH16_PROOF_BYTES];
        czk_groth16_proof_encode(enc, &pr);
        double msm = t.g.msm_h_s + t.g.msm_l_s + t.g.msm_a_s + t.g.msm_b_g1_s;
        if (c.json) {
            printf("{\"sector\":\"%s\",\"constraints\":%llu,\"aux\":%llu,\"inputs\":%llu,\"params\":\"%s\","
                   "\"params_generated\":%s,\"verified\":true,\"times\":{\"generate_sector\":%.4f,"
                   "\"setup_or_load\":%.4f,\"synthesis\":%.4f,\"h_ntt\":%.4f,\"msm_h\":%.4f,\"msm_l\":%.4f,"
                   "\"msm_a\":%.4f,\"msm_b_g1\":%.4f,\"msm_b_g2\":%.4f,\"prove_total\":%.4f,\"verify\":%.4f}}\n",
                   czk_fc_proof_name(shape.proof), (unsigned long long)t.constraints,
                   (unsigned long long)t.aux, (unsigned long long)t.inputs, ppath,
                   generated ? "true" : "false", t_gen, t_setup, t.synth_s, t.g.h_s, t.g.msm_h_s,
                   t.g.msm_l_s, t.g.msm_a_s, t.g.msm_b_g1_s, t.g.msm_b_g2_s, t_prove, t_verify);
        } else if (!c.quiet) {
            printf("czk demo: synthetic %s sector, %llu constraints, %llu aux, %llu public inputs\n",
                   czk_fc_proof_name(shape.proof), (unsigned long long)t.constraints,
                   (unsigned long long)t.aux, (unsigned long long)t.inputs);
            printf("  generate sector       %8.3f s\n", t_gen);
            printf("  %-21s %8.3f s  (%s)\n", generated ? "setup (now cached)" : "load cached params",
                   t_setup, ppath);
            printf("  synthesis             %8.3f s\n", t.synth_s);
            printf("  H (NTTs)              %8.3f s\n", t.g.h_s);
            printf("  MSMs G1 (h,l,a,b)     %8.3f s  (h %.3f, l %.3f, a %.3f, b_g1 %.3f)\n", msm,
                   t.g.msm_h_s, t.g.msm_l_s, t.g.msm_a_s, t.g.msm_b_g1_s);
            printf("  MSM b_g2 (parallel)   %8.3f s\n", t.g.msm_b_g2_s);
            printf("  prove total           %8.3f s\n", t_prove);
            printf("  verify                %8.3f s  -> VALID\n", t_verify);
            printf("  proof: ");
            for (int i = 0; i < 16; i++) printf("%02x", enc[i]);
            printf("... (%d bytes)\n", CZK_GROTH16_PROOF_BYTES);
        }
    }
    czk_groth16_params_clear(&p);
    czk_fc_c1_free(&c1);
    return code;
}

CZK_CLI_COMMAND(demo, "synthetic 2KiB sector: synthesize, set up, prove, verify", run)
