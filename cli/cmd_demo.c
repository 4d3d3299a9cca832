/* czk demo: the embedded default job, a synthetic 2KiB job of any kind
 * (PoRep unless --kind) made, set up (cached), proven and verified through
 * the registry's row alone. */
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "cli.h"
#include "progress.h"
#include "czk/kind.h"

static const char usage[] =
    "usage: czk demo [--kind KIND] [--seed N] [--threads N] [--json] [--quiet]\n\n"
    "The embedded default job: generate a synthetic 2KiB job of KIND (porep, the\n"
    "default: a sector's C1; window-post, winning-post: a partition's vanilla proofs;\n"
    "snap: an update's), set up Groth16 parameters for its circuit (cached on disk\n"
    "after the first run: $CZK_CACHE_DIR, else $XDG_CACHE_HOME/czk, else\n"
    "~/.cache/czk), synthesize and prove its first partition, verify the proof, and\n"
    "print the per-stage times.\n\n"
    "  --kind KIND   porep, window-post, winning-post or snap (default porep)\n"
    "  --seed N      the synthetic job's seed (default: a fresh one from the OS)\n";

enum { OPT_KIND = CZK_OPT_FIRST_FREE, OPT_SEED };

typedef struct demo_opts {
    const czk_proof_kind *kind;
    int have_seed;
    unsigned long long seed;
} demo_opts;

static int on_opt(void *ctx, int opt, const char *arg)
{
    demo_opts *o = ctx;
    switch (opt) {
    case OPT_KIND:
        if (!(o->kind = czk_proof_kind_find(arg))) {
            char names[128];
            czk_proof_kind_names(names, sizeof names);
            return czk_cli_usage_error("demo", usage, "--kind wants %s, got '%s'", names, arg);
        }
        return 0;
    case OPT_SEED:
        o->have_seed = 1;
        return czk_cli_opt_u64(&o->seed, arg, "--seed", "demo", usage);
    }
    return czk_cli_usage_error("demo", usage, "unexpected option");
}

typedef struct demo_run {
    char name[96], ppath[512];
    int generated;
    double t_gen, t_setup, t_prove, t_verify;
    czk_kind_times t;
    uint8_t proof[CZK_GROTH16_PROOF_BYTES];
} demo_run;

static void print_json(const czk_proof_kind *k, const demo_run *r)
{
    const czk_kind_times *t = &r->t;
    printf("{\"kind\":\"%s\",\"sector\":\"%s\",\"constraints\":%llu,\"aux\":%llu,\"inputs\":%llu,\"params\":\"%s\","
           "\"params_generated\":%s,\"verified\":true,\"times\":{\"generate_sector\":%.4f,"
           "\"setup_or_load\":%.4f,\"synthesis\":%.4f,\"h_ntt\":%.4f,\"msm_h\":%.4f,\"msm_l\":%.4f,"
           "\"msm_a\":%.4f,\"msm_b_g1\":%.4f,\"msm_b_g2\":%.4f,\"prove_total\":%.4f,\"verify\":%.4f}}\n",
           k->name, r->name, (unsigned long long)t->constraints, (unsigned long long)t->aux,
           (unsigned long long)t->inputs, r->ppath, r->generated ? "true" : "false", r->t_gen, r->t_setup, t->synth_s,
           t->g.h_s, t->g.msm_h_s, t->g.msm_l_s, t->g.msm_a_s, t->g.msm_b_g1_s, t->g.msm_b_g2_s, r->t_prove,
           r->t_verify);
}

static void print_text(const demo_run *r)
{
    const czk_kind_times *t = &r->t;
    double msm = t->g.msm_h_s + t->g.msm_l_s + t->g.msm_a_s + t->g.msm_b_g1_s;
    printf("czk demo: synthetic %s sector, %llu constraints, %llu aux, %llu public inputs\n", r->name,
           (unsigned long long)t->constraints, (unsigned long long)t->aux, (unsigned long long)t->inputs);
    printf("  generate sector       %8.3f s\n", r->t_gen);
    printf("  %-21s %8.3f s  (%s)\n", r->generated ? "setup (now cached)" : "load cached params", r->t_setup,
           r->ppath);
    printf("  synthesis             %8.3f s\n", t->synth_s);
    printf("  H (NTTs)              %8.3f s\n", t->g.h_s);
    printf("  MSMs G1 (h,l,a,b)     %8.3f s  (h %.3f, l %.3f, a %.3f, b_g1 %.3f)\n", msm, t->g.msm_h_s,
           t->g.msm_l_s, t->g.msm_a_s, t->g.msm_b_g1_s);
    printf("  MSM b_g2 (parallel)   %8.3f s\n", t->g.msm_b_g2_s);
    printf("  prove total           %8.3f s\n", r->t_prove);
    printf("  verify                %8.3f s  -> VALID\n", r->t_verify);
    printf("  proof: ");
    for (int i = 0; i < 16; i++) printf("%02x", r->proof[i]);
    printf("... (%d bytes)\n", CZK_GROTH16_PROOF_BYTES);
}

/* Generate, set up or load, prove partition 0, verify: CZK_OK, or the
 * status with *what naming the step. */
static czk_status demo(demo_run *r, const czk_proof_kind *k, const void *shape, uint64_t seed, czk_progress *pg,
                       const char **what)
{
    void *data = NULL;
    double t0 = czk_now();
    *what = "generating the synthetic sector failed";
    czk_status s = k->generate(&data, shape, seed);
    r->t_gen = czk_now() - t0;
    if (s != CZK_OK) return s;
    czk_groth16_params p;
    memset(&p, 0, sizeof p);
    t0 = czk_now();
    *what = "parameters";
    s = czk_kind_cached_params(&p, k, shape, czk_progress_cb, pg, r->ppath, &r->generated);
    czk_progress_done(pg);
    r->t_setup = czk_now() - t0;
    czk_groth16_proof pr;
    if (s == CZK_OK) {
        *what = "prove/verify failed";
        t0 = czk_now();
        s = czk_kind_prove_partition(&pr, k, &p, data, 0, NULL, &r->t);
        r->t_prove = czk_now() - t0;
    }
    if (s == CZK_OK) {
        t0 = czk_now();
        s = czk_kind_verify_data(&p.vk, k, data, &pr, NULL, 1);
        r->t_verify = czk_now() - t0;
        czk_groth16_proof_encode(r->proof, &pr);
    }
    czk_groth16_params_clear(&p);
    k->free_data(data);
    return s;
}

static int run(int argc, char **argv)
{
    static const struct option opts[] = {
        {"kind", required_argument, 0, OPT_KIND},
        {"seed", required_argument, 0, OPT_SEED},
        {0, 0, 0, 0},
    };
    demo_opts o = {.kind = czk_proof_kind_at(0)};
    czk_cli_common c;
    int rc = czk_cli_parse(argc, argv, "demo", usage, opts, &o, on_opt, &c, NULL);
    if (rc != CZK_CLI_CONTINUE) return rc;
    const czk_proof_kind *k = o.kind;
    czk_progress pg;
    czk_progress_init(&pg, czk_cli_progress_enabled(&c));
    const czk_shape_spec spec = {.sector_size = 2048};
    void *shape = NULL;
    czk_status s = k->shape_resolve(&shape, &spec);
    if (s != CZK_OK) return czk_cli_fail("demo", s, "2KiB shape");
    uint64_t seed = o.seed;
    if (!o.have_seed && czk_os_random(&seed, sizeof seed) != CZK_OK) seed = 1;
    demo_run r;
    memset(&r, 0, sizeof r);
    k->shape_name(r.name, sizeof r.name, shape);
    const char *what = "";
    s = demo(&r, k, shape, seed, &pg, &what);
    free(shape);
    if (s != CZK_OK) return czk_cli_fail("demo", s, what);
    if (c.json) print_json(k, &r);
    else if (!c.quiet) print_text(&r);
    return CZK_EXIT_OK;
}

CZK_CLI_COMMAND(demo, "a synthetic 2KiB job of any kind (PoRep by default): set up, prove, verify", run)
